internal import LMDB

extension Store {
  /// Appends the counts of minutes that have ended — refusals, requests, and this process's
  /// repeated reads (``UseTally``) — when any wait; `false` when none did.
  /// Every write does this first anyway; the store server calls it every few seconds, so that a
  /// minute's counts reach the log — and its proofs and checkpoints — within seconds of the
  /// minute's end, stamped then, rather than with whatever write comes next.
  package func flushEndedTallies() throws(StoreError) -> Bool {
    let minute = RefusalTally.minute(of: now())
    let meta = self.meta
    let due = try StoreError.wrapping {
      try environment.read { txn in
        try RefusalTally.hasDue(before: minute, in: txn, meta: meta)
          || RequestTally.hasDue(before: minute, in: txn, meta: meta)
      }
    }
    guard due || uses.hasDue(before: minute) else { return false }
    try StoreError.wrapping { try write { _, _ in } }
    return true
  }

  /// Appends every count of this process's reads (``UseTally``), also of the minute under way,
  /// and from now on with every write: for a process about to close the store, so that its counts
  /// are not lost with its memory. The store server calls it when it stops.
  package func flushUses() throws(StoreError) {
    uses.drain()
    guard uses.hasDue(before: .max), !options.readOnly else { return }
    try StoreError.wrapping { try write { _, _ in } }
  }

  /// Turns the recording of apps' reads off (or on again) in this process. Only for the benchmark
  /// that measures what recording costs (Benchmarks/README.md): nothing that ships turns it off.
  package func recordReads(_ on: Bool) { uses.enable(on) }

  /// Counts the reads `entries` of `client` (``UseTally``), identified by `evidence` when the store
  /// server identified it: what the log does not hold yet is appended in one durable write before
  /// this returns. Throws ``AccessError/useNotRecorded(client:service:reason:)`` when that write
  /// fails: the read must not be answered.
  func recordUses(
    _ entries: [ReadUses.Entry], of client: String, identifiedBy evidence: CallerEvidence?
  ) throws(StoreError) {
    try recordUses([(client, entries)], identifiedBy: evidence)
  }

  /// Counts the uses of several apps as ``recordUses(_:of:identifiedBy:)`` does, in one durable
  /// write for all that the log does not hold yet.
  func recordUses(
    _ batch: [(client: String, entries: [ReadUses.Entry])], identifiedBy evidence: CallerEvidence?
  ) throws(StoreError) {
    guard uses.isEnabled else { return }
    let minute = RefusalTally.minute(of: now())
    var new: [(use: UseTally.Use, draft: RecordDraft)] = []
    for (client, entries) in batch {
      for entry in entries {
        let use = UseTally.Use(
          key: UseTally.Key(client: client, service: entry.service, operation: entry.operation, minute: minute),
          status: entry.state.status, decision: entry.state.position, objects: entry.objects, evidence: evidence)
        if let draft = uses.count(use) { new.append((use, draft)) }
      }
    }
    guard let first = new.first?.use.key else { return }
    do {
      guard !options.readOnly else { throw StoreError.readOnly }
      let caller = batch.count == 1 ? evidence.map { (Principal.client(first.client), $0) } : nil
      try write(caller: caller) { txn, appender in
        for (_, draft) in new { try appender.append(draft, in: &txn) }
      }
    } catch {
      throw .access(.useNotRecorded(client: first.client, service: first.service, reason: "\(error)"))
    }
    for (use, _) in new { uses.recorded(use) }
  }
}
