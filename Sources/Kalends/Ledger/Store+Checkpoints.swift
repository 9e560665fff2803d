internal import LMDB

extension Store {
  /// The log's identity in its checkpoints: `kalends/<store id>`.
  public var origin: String { Self.origin(of: id) }

  /// The origin of the store `id`.
  static func origin(of id: StoreID) -> String { "kalends/\(id)" }

  /// Signs a checkpoint of the tree at the log's head with `signer`, keeps it in the store and
  /// returns it; when the head was already signed by that key, returns the kept one.
  ///
  /// Checkpoints never go back and never fork: the tree is signed only when, at the size of the
  /// latest kept checkpoint, it has the root that checkpoint states — a log rewritten since is
  /// refused with ``IntegrityProblem/Kind/treeMismatch`` (exit 69), whatever key signs.
  @discardableResult
  public func checkpoint(signer: CheckpointSigner) throws(StoreError) -> SignedNote {
    guard !options.readOnly else { throw .readOnly }
    return try StoreError.wrapping {
      try environment.write { txn in
        let head = try Self.loadHead(meta: meta, in: txn)
        let (nodes, frontier) = try treeAtHead(head, in: &txn)
        return try Self.signCheckpoint(frontier.head, nodes: nodes, origin: origin, signer: signer, in: &txn)
      }
    }
  }

  /// The kept checkpoint of the largest size, or `nil` when none was signed.
  public func latestCheckpoint() throws(StoreError) -> SignedNote? {
    try readCheckpoints { txn, database in
      try txn.withCursor(on: database) { cursor in
        guard try cursor.last() else { return nil }
        return try cursor.withCurrent { _, value in try Self.decodeNote(value) }
      }
    }
  }

  /// The kept checkpoint of tree size `size`, or `nil`.
  public func checkpoint(size: UInt64) throws(StoreError) -> SignedNote? {
    try readCheckpoints { txn, database in
      try txn.withValue(forKey: BigEndianKey(size), in: database) { try Self.decodeNote($0) }
    }
  }

  /// The tree sizes of every kept checkpoint, in order.
  public func checkpointSizes() throws(StoreError) -> [UInt64] {
    try readCheckpoints { txn, database in
      var sizes: [UInt64] = []
      try txn.withCursor(on: database) { cursor in
        try cursor.scanForward { key, _ in
          if let size = BigEndianKey<UInt64>(key)?.value { sizes.append(size) }
          return .continue
        }
      }
      return sizes
    } ?? []
  }

  /// Signs `tree` (the tree at the head of this write transaction) unless it forks from the
  /// latest kept checkpoint, and keeps it.
  ///
  /// `known` is a tree head of this log already computed in the transaction (the tree when it
  /// began): when the latest checkpoint has its size, its root is compared without reading nodes.
  static func signCheckpoint(
    _ tree: TreeHead, nodes: MerkleNodes, origin: String, signer: CheckpointSigner, known: TreeHead? = nil,
    in txn: inout WriteTransaction
  ) throws -> SignedNote {
    let database = try txn.openDatabase(named: MetaKey.checkpointDatabase)
    // The latest kept checkpoint's text only: its whole note is parsed when it is of this size.
    let latest: [UInt8]? = try txn.withCursor(on: database) { cursor in
      guard try cursor.last() else { return nil }
      return try cursor.withCurrent { _, value in Array(copying: value) }
    }
    var kept: SignedNote?
    if let latest {
      let signed = try keptTreeHead(latest)
      let root: RecordHash
      if signed.size == 0 {
        root = MerkleTree.emptyRoot
      } else if let known, known.size == signed.size {
        root = known.root
      } else if signed.size == tree.size {
        root = tree.root
      } else {
        root = try txn.reading { reader in
          try MerkleTree.rootHash(0, signed.size) { try nodes.subtree($0, $1, in: reader) }
        }
      }
      guard signed.size <= tree.size, root == signed.root else {
        throw StoreError.integrity(
          IntegrityProblem(
            position: LogPosition(min(signed.size, tree.size) + 1), kind: .treeMismatch,
            detail: "refusing to sign: the log's tree at size \(signed.size) has root \(root.shortHex)…, "
              + "but the checkpoint kept for that size states \(signed.root.shortHex)… — the log was rewritten"))
      }
      if signed.size == tree.size {
        let note = try decodeNote(latest.span.bytes)
        if note.signatures.contains(where: { $0.name == signer.verifier.name && $0.keyID == signer.verifier.keyID }) {
          return note
        }
        kept = note
      }
    }
    let checkpoint = Checkpoint(origin: origin, treeHead: tree)
    let text = checkpoint.text
    var note = SignedNote(text: text, signatures: [signer.signature(of: Array(text.utf8))])
    if let kept, kept.text == text { note = kept.adding(note.signatures[0]) }
    try txn.put(Array(note.description.utf8), forKey: BigEndianKey(tree.size), in: database)
    return note
  }

  /// The tree head a kept checkpoint states, from its text alone (up to its first blank line).
  static func keptTreeHead(_ note: [UInt8]) throws -> TreeHead {
    var end = 0
    while end + 1 < note.count, !(note[end] == 0x0A && note[end + 1] == 0x0A) { end += 1 }
    do {
      return try Checkpoint(parsing: String(decoding: note[..<min(end + 1, note.count)], as: UTF8.self)).treeHead
    } catch {
      throw StoreError.integrity(
        IntegrityProblem(position: .none, kind: .treeMismatch, detail: "a kept checkpoint is malformed: \(error)"))
    }
  }

  private func readCheckpoints<R>(
    _ body: (borrowing ReadTransaction, Database) throws -> R?
  ) throws(StoreError) -> R? {
    try StoreError.wrapping {
      try environment.read { txn in
        let database: Database
        do {
          database = try txn.openDatabase(named: MetaKey.checkpointDatabase)
        } catch LMDBError.notFound {
          return nil
        }
        return try body(txn, database)
      }
    }
  }

  static func decodeNote(_ bytes: RawSpan) throws -> SignedNote {
    let text = bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    do {
      return try SignedNote(parsing: text)
    } catch {
      throw StoreError.integrity(
        IntegrityProblem(position: .none, kind: .treeMismatch, detail: "a kept checkpoint is malformed: \(error)"))
    }
  }
}

extension Store {
  /// Proof that the record at `position` is in the log, against the latest kept checkpoint
  /// (which must cover it: sign one first), or against `checkpoint` when given (a kept one).
  public func proveRecord(at position: LogPosition, against checkpoint: SignedNote? = nil) throws(StoreError)
    -> RecordProof
  {
    let kept = try checkpoint == nil ? latestCheckpoint() : checkpoint
    guard let note = kept else {
      throw .invalidInput("no checkpoint is kept yet — sign one (kalends checkpoint) before proving records")
    }
    let size: UInt64
    do {
      size = try Checkpoint(parsing: note.text).treeHead.size
    } catch {
      throw .invalidInput("the checkpoint is malformed: \(error)")
    }
    guard position.rawValue >= 1, position.rawValue <= size else {
      throw .invalidInput(
        "position \(position) is not among the \(size) records of the checkpoint — sign a newer one (kalends checkpoint)"
      )
    }
    let inclusion = try inclusionProof(for: position, treeSize: size)
    let bytes: [UInt8] = try StoreError.wrapping {
      try environment.read { txn in
        guard let bytes = try txn.value(forKey: BigEndianKey(position.rawValue), in: log) else {
          throw StoreError.recordNotFound(position, head: try Self.loadHead(meta: meta, in: txn).position)
        }
        return bytes
      }
    }
    return RecordProof(record: bytes, inclusion: inclusion, checkpoint: note)
  }
}

extension Store {
  /// Adds `cosignatures` (a witness's answer) to the kept checkpoint of tree size `size`, skipping
  /// any by a key that already signed it, and returns the note as kept. Throws
  /// ``StoreError/invalidInput(_:)`` when no checkpoint of that size is kept.
  @discardableResult
  public func addCosignatures(_ cosignatures: [NoteSignature], toCheckpointOfSize size: UInt64) throws(StoreError)
    -> SignedNote
  {
    guard !options.readOnly else { throw .readOnly }
    return try StoreError.wrapping {
      try environment.write { txn in
        let database = try txn.openDatabase(named: MetaKey.checkpointDatabase)
        guard var note = try txn.withValue(forKey: BigEndianKey(size), in: database, { try Self.decodeNote($0) }) else {
          throw StoreError.invalidInput("no checkpoint of size \(size) is kept")
        }
        for cosignature in cosignatures { note = note.adding(cosignature) }
        try txn.put(Array(note.description.utf8), forKey: BigEndianKey(size), in: database)
        return note
      }
    }
  }
}
