package import LMDB

/// Appends records inside one write transaction, keeping the chain and the head as it goes.
///
/// Created by ``Store`` for each write transaction; the store saves the head to the metadata when
/// the transaction's body returns.
package struct LogAppender {
  let log: Database
  /// The head after the records appended so far.
  package private(set) var head: LogHead
  /// The head when the transaction began.
  package let initialHead: LogHead
  /// One timestamp for every record of the transaction: the time it was assembled.
  let timestamp: Timestamp
  /// Applied to each record as it is appended, so later commands of the transaction see it.
  let projections: ProjectionSet
  /// The log's Merkle tree: its right edge before `pendingLeaves`, and where its completed
  /// nodes are stored. ``settleTree(in:)`` brings it to the head.
  private var frontier: TreeFrontier
  let nodes: MerkleNodes
  /// The leaves of the last records, not yet in `frontier`: gathered from a multiple of 16 so that
  /// 16 at a time are hashed two nodes at once (``TreeFrontier/append(contentsOf:completed:)``).
  /// Inline storage, so that a transaction allocates nothing for them.
  private var pendingLeaves = InlineArray<16, RecordHash>(repeating: RecordHash(words: 0, 0, 0, 0))
  private var pendingCount = 0
  private var buffer: [UInt8] = []
  /// Salts for the content of the records written in format version 3.
  private var salts = ContentSalts()
  /// Whether records with content are written in format version 3 (always, but for tests that
  /// make the stores of older versions: ``StoreOptions/writesLegacyRecords``).
  var sealsContent = true
  /// The last principal that passed validation: a batch usually has one, validated once.
  private var validatedPrincipal: Principal?
  /// The caller the store server identified, and as whom: its records carry the evidence (record
  /// format version 2). Records of other principals in the transaction (a refusal tally flushed
  /// for another app, the person's decision) do not.
  package var caller: (principal: Principal, evidence: CallerEvidence)?
  /// The process through which the person gave the answer the write records (the store server's
  /// prompt desk: `kalends prompts answer`, or the server's own terminal): the person's records in
  /// it carry that process's evidence, so that the log says which process spoke for the person.
  package var answerer: CallerEvidence?

  init(
    log: Database, head: LogHead, timestamp: Timestamp, projections: ProjectionSet, frontier: TreeFrontier,
    nodes: MerkleNodes
  ) {
    precondition(frontier.size == head.position.rawValue, "the Merkle tree must be at the head")
    self.log = log
    self.projections = projections
    self.frontier = frontier
    self.nodes = nodes
    self.head = head
    self.initialHead = head
    self.timestamp = timestamp
    buffer.reserveCapacity(512)
  }

  /// Whether anything was appended.
  package var hasAppended: Bool { head.position != initialHead.position }

  /// Validates `draft`, appends it at the next position and returns its header.
  @discardableResult
  package mutating func append(_ draft: RecordDraft, in txn: inout WriteTransaction) throws -> LogRecordHeader {
    if draft.principal != validatedPrincipal {
      try draft.principal.validate()
      validatedPrincipal = draft.principal
    }
    guard draft.payload.bytes.count <= RecordCodec.maximumPayloadSize else {
      throw StoreError.invalidInput(
        "a record payload is \(draft.payload.bytes.count) bytes, more than the \(RecordCodec.maximumPayloadSize) allowed"
      )
    }
    let position = head.position.next
    var context: [UInt8] = []
    if let evidence = draft.identification ?? (caller?.principal == draft.principal ? caller?.evidence : nil)
      ?? (draft.principal == .person ? answerer : nil)
    {
      context = evidence.context
      guard context.count <= RecordCodec.maximumContextSize else {
        throw StoreError.invalidInput(
          "a caller context is \(context.count) bytes, more than the \(RecordCodec.maximumContextSize) allowed")
      }
    }
    let version: UInt8
    let hash: RecordHash
    if sealsContent, draft.kind.schema?.contentTags.isEmpty == false,
      let sealed = RecordCodec.encodeSealed(
        into: &buffer, position: position, timestamp: timestamp, draft: draft, previousHash: head.hash,
        context: context, salt: salts.next())
    {
      (version, hash) = (RecordCodec.sealedVersion, sealed)
    } else {
      version = context.isEmpty ? RecordCodec.currentVersion : RecordCodec.contextVersion
      hash = RecordCodec.encode(
        into: &buffer, position: position, timestamp: timestamp, draft: draft, previousHash: head.hash,
        context: context)
    }
    do {
      // Byte views for both, through the non-generic put: the generic one is not specialised
      // across modules, and its witness calls cost about 230 instructions a record (callgrind).
      let record = buffer.span.bytes.extracting(droppingFirst: 1)
      try withUnsafeBytes(of: position.rawValue.bigEndian) { key throws(LMDBError) in
        try txn.put(record, forKey: RawSpan(_unsafeBytes: key), in: log, options: .append)
      }
    } catch .keyExists {
      throw StoreError.integrity(
        IntegrityProblem(
          position: position, kind: .headMismatch,
          detail: "the log already holds a record at or after \(position), beyond the recorded head"))
    }
    let header = LogRecordHeader(
      formatVersion: version, position: position,
      timestamp: timestamp,
      principal: draft.principal, kind: draft.kind, previousHash: head.hash, hash: hash)
    head = LogHead(position: position, hash: hash)
    pendingLeaves[pendingCount] = hash
    pendingCount += 1
    if (frontier.size + UInt64(pendingCount)) % 16 == 0 { try settleTree(in: &txn) }
    do {
      try projections.apply(header, payload: draft.payload.bytes.span.bytes, in: &txn)
    } catch let refusal as RecordRefusal {
      throw StoreError.access(.recordRefused(refusal.reason))
    }
    return header
  }

  /// Adds the pending leaves to the tree, storing the nodes they complete, and returns its right
  /// edge at the head.
  @discardableResult
  package mutating func settleTree(in txn: inout WriteTransaction) throws -> TreeFrontier {
    guard pendingCount > 0 else { return frontier }
    let nodes = self.nodes  // a copy: the closure must not read `self` while `frontier` is changed
    let leaves = pendingLeaves
    try leaves.span.withUnsafeBufferPointer { leaves in
      try frontier.append(contentsOf: UnsafeBufferPointer(rebasing: leaves[..<pendingCount])) { height, index, node in
        try nodes.put(height, index, node, in: &txn)
      }
    }
    pendingCount = 0
    return frontier
  }
}
