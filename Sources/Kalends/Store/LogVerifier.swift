internal import LMDB

/// Walks the log in one snapshot and checks it record by record: positions in sequence from 1,
/// every record decodable, each previous-hash equal to the hash of the record before, each stored
/// hash equal to the hash of the bytes, the first record the store's creation, every record made by
/// a principal that may make it (``RecordAuthority``), and the recorded head equal to the end of the
/// walk. Stops at the first problem, since nothing after it can be trusted.
struct LogVerifier {
  let store: Store
  /// Called every `progressInterval` records with the number checked and the recorded head.
  var progress: ((Int, LogPosition) -> Void)?
  var progressInterval = 10_000
  /// A tree head kept from before (a checkpoint's), which the log must extend: the records'
  /// tree at its size must have its root.
  var since: TreeHead?

  func run() throws(StoreError) -> VerificationReport {
    try StoreError.wrapping {
      try store.environment.read { txn in
        let recordedHead = try Store.loadHead(meta: store.meta, in: txn)
        // The tree is checked when the store has one (a store from before it, opened read-only,
        // has none yet): every stored node against the one the records make, then its right edge.
        let nodes = store.nodes
        let storedFrontier = try MerkleNodes.frontier(meta: store.meta, in: txn)
        var walk = LogWalk(storeID: store.id, now: store.now())
        try txn.withCursor(on: store.log) { cursor in
          try cursor.scanForward { key, value in
            walk.check(key: key, value: value)
            if let since, walk.problem == nil, walk.frontier.size == since.size, walk.frontier.root != since.root {
              walk.problem = IntegrityProblem(
                position: LogPosition(since.size), kind: .checkpointMismatch,
                detail: "the first \(since.size) records make the tree root \(walk.frontier.root.shortHex)…, "
                  + "but the checkpoint states \(since.root.shortHex)…: records at or before \(since.size) were "
                  + "rewritten, dropped or reordered since it was signed")
            }
            if let nodes, storedFrontier != nil, !walk.completedNodes.isEmpty {
              for (height, index, hash) in walk.completedNodes where walk.problem == nil {
                if try nodes.stored(height, index, in: txn) != hash {
                  walk.problem = IntegrityProblem(
                    position: LogPosition((index << height) + 1), kind: .treeMismatch,
                    detail: "the Merkle tree's node at height \(height), index \(index) differs from the records' — "
                      + "the tree was altered")
                }
              }
              walk.completedNodes.removeAll(keepingCapacity: true)
            }
            if walk.checked % progressInterval == 0 { progress?(walk.checked, recordedHead.position) }
            return walk.problem == nil ? .continue : .stop
          }
        }
        if let since, walk.problem == nil, since.size == 0, since.root != MerkleTree.emptyRoot {
          walk.problem = IntegrityProblem(
            position: .none, kind: .checkpointMismatch, detail: "the checkpoint of the empty log has a wrong root")
        }
        if let since, walk.problem == nil, walk.frontier.size < since.size {
          walk.problem = IntegrityProblem(
            position: LogPosition(walk.frontier.size + 1), kind: .checkpointMismatch,
            detail: "the log ends at \(walk.frontier.size) but the checkpoint covers \(since.size) records: "
              + "records \(walk.frontier.size + 1)–\(since.size) were cut off")
        }
        if walk.problem == nil { walk.checkEnd(against: recordedHead) }
        if walk.problem == nil, let storedFrontier, storedFrontier != walk.frontier {
          walk.problem = IntegrityProblem(
            position: LogPosition(min(storedFrontier.size, walk.frontier.size) + 1), kind: .treeMismatch,
            detail:
              "the Merkle tree's right edge (\(storedFrontier.size) leaves, root \(storedFrontier.root.shortHex)…) "
              + "differs from the records' (\(walk.frontier.size) leaves, root \(walk.frontier.root.shortHex)…)")
        }
        return VerificationReport(
          recordsChecked: walk.checked, verifiedHead: walk.head, recordedHead: recordedHead, problem: walk.problem,
          timestampAnomalies: walk.anomalies, timestampAnomalyCount: walk.anomalyCount,
          unprovenRecords: walk.unproven, unprovenRecordCount: walk.unprovenCount,
          treeHead: walk.problem == nil && storedFrontier != nil ? walk.frontier.head : nil)
      }
    }
  }

}

extension Store {
  /// Walks the whole log and checks every record and link of the chain, in one consistent snapshot
  /// (writers may go on meanwhile). `progress` is called now and then with the records checked and
  /// the head.
  public func verify(progress: ((Int, LogPosition) -> Void)? = nil) throws(StoreError) -> VerificationReport {
    try LogVerifier(store: self, progress: progress).run()
  }

  /// ``verify(progress:)``, and checks that the log extends `checkpoint`, a checkpoint kept from
  /// before whose signature the caller checked: the records' own hashes, recomputed, make the
  /// checkpoint's root at its size, and the log is not shorter. A log rewritten and re-chained
  /// since, with its tree recomputed, fails with ``IntegrityProblem/Kind/checkpointMismatch``;
  /// a checkpoint of another log fails with ``StoreError/invalidInput(_:)``.
  public func verify(
    since checkpoint: Checkpoint, progress: ((Int, LogPosition) -> Void)? = nil
  ) throws(StoreError) -> VerificationReport {
    guard checkpoint.origin == origin else {
      throw .invalidInput("the checkpoint is for the log \(checkpoint.origin), not this store's \(origin)")
    }
    return try LogVerifier(store: self, progress: progress, since: checkpoint.treeHead).run()
  }
}
