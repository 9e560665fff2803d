import Kalends
internal import LMDB

/// A store's signed checkpoints at the mirror: signed by the key the organisation enrolled for the
/// store, cosigned by the witness quorum, and — once the mirror holds the records the message's
/// proof leads to — with a signed root consistent with the root of those records. A checkpoint
/// signed by another key, or whose root the records held do not extend, flags the store.
extension FleetMirror {
  /// What checking a waiting checkpoint came to: verified at a size, or an alert.
  struct CheckpointOutcome {
    var verified: UInt64?
    var alert: Alert?
    /// The checkpoint verified, kept for the mirror's verdict.
    var note: SignedNote?
  }

  /// Takes a checkpoint message of `store`.
  func takeCheckpoint(_ store: StoreID, sequence: UInt64, data: [UInt8]) throws -> (StoreID, LogPosition)? {
    let message: CheckpointMessage
    do { message = try CheckpointMessage(bytes: data) } catch {
      return try raise(
        Alert(kind: .malformed, store: store, position: .none, detail: error.description, message: sequence))
    }
    if flagged.contains(store) { return nil }
    guard let verifier = trust.enrolled[store] else {
      return try raise(
        Alert(
          kind: .checkpoint, store: store, position: .none,
          detail: "no key is enrolled for store \(store): its checkpoint is not trusted", message: sequence))
    }
    let checkpoint: Checkpoint
    do {
      checkpoint = try Checkpoint.verified(message.note, by: verifier, origin: "kalends/\(store)")
    } catch {
      return try raise(
        Alert(
          kind: .checkpoint, store: store, position: .none,
          detail:
            "a checkpoint not signed by the key enrolled for the store (forged, or signed by another key): \(error)",
          message: sequence, flags: true), evidence: data)
    }
    let size = LogPosition(checkpoint.treeHead.size)
    if !trust.witnesses.isEmpty {
      do { try message.note.verifyCosignatures(by: trust.witnesses, quorum: trust.quorum) } catch {
        return try raise(
          Alert(
            kind: .checkpoint, store: store, position: size,
            detail: "the checkpoint of \(size.rawValue) records is short of the witness quorum: \(error)",
            message: sequence), evidence: data)
      }
    }
    guard message.publishedSize >= checkpoint.treeHead.size else {
      return try raise(
        Alert(
          kind: .malformed, store: store, position: size, detail: "its proof leads to a tree smaller than it",
          message: sequence))
    }
    let held = walks[store]?.head.position.rawValue ?? 0
    if held < message.publishedSize {
      // Checked when the records come.
      try environment.write { txn in
        try txn.put(message.bytes, forKey: store.bytes + [2], in: checkpoints)
      }
      pendingCheckpoints[store] = message
      return nil
    }
    // Records held beyond the tree its proof leads to (a checkpoint published late, or by a
    // publisher the stream refused — a clone's evidence): checked against the records held up to it.
    let tree =
      held == message.publishedSize
      ? walks[store]?.frontier.head
      : try environment.read { txn in
        try Self.walk(store, through: message.publishedSize, in: txn, records, now: .now()).frontier.head
      }
    guard let tree else { return nil }
    let outcome = checked(message, store, against: tree, sequence: sequence)
    if let alert = outcome.alert { return try raise(alert, evidence: data) }
    try environment.write { txn in try record(outcome, store, in: &txn) }
    remember(outcome, store)
    return nil
  }

  /// Checks the signed root of `message`'s checkpoint against `tree`, the records' tree at the size
  /// its proof leads to.
  func checked(_ message: CheckpointMessage, _ store: StoreID, against tree: TreeHead, sequence: UInt64)
    -> CheckpointOutcome
  {
    guard let checkpoint = try? Checkpoint(parsing: message.note.text) else {
      return CheckpointOutcome(
        alert: Alert(kind: .malformed, store: store, position: .none, detail: "no checkpoint", message: sequence))
    }
    let proof = ConsistencyProof(oldSize: checkpoint.treeHead.size, newSize: tree.size, path: message.proof)
    do {
      try proof.check(from: checkpoint.treeHead, to: tree)
      return CheckpointOutcome(verified: checkpoint.treeHead.size, note: message.note)
    } catch {
      return CheckpointOutcome(
        alert: Alert(
          kind: .checkpoint, store: store, position: LogPosition(checkpoint.treeHead.size),
          detail: "the signed root of \(checkpoint.treeHead.size) records is not consistent with the records held "
            + "(\(error)): the store's log was rewritten since it was signed",
          message: sequence, flags: true))
    }
  }

  /// Keeps a verified checkpoint's size and note (keys store ‖ 1, store ‖ 3), and drops the
  /// waiting one, in `txn`.
  func record(_ outcome: CheckpointOutcome, _ store: StoreID, in txn: inout WriteTransaction) throws {
    // A checkpoint older than the one verified (published late) is consistent, and kept no more.
    if let size = outcome.verified, size > verifiedCheckpoints[store] ?? 0 {
      try txn.put(BigEndianBytes.of(size), forKey: store.bytes + [1], in: checkpoints)
      if let note = outcome.note {
        try txn.put(Array(note.description.utf8), forKey: store.bytes + [3], in: checkpoints)
      }
    }
    _ = try txn.delete(store.bytes + [2], in: checkpoints)
  }

  /// `record(_:_:in:)` in memory, once committed.
  func remember(_ outcome: CheckpointOutcome, _ store: StoreID) {
    if let size = outcome.verified { verifiedCheckpoints[store] = max(size, verifiedCheckpoints[store] ?? 0) }
    pendingCheckpoints[store] = nil
  }
}
