internal import LMDB

extension Store {
  // MARK: The tree's upkeep

  /// The tree's storage and its right edge at `head`, in the write transaction `txn`: caught up
  /// first (and saved) when records were appended without it, by an earlier Kalends.
  func treeAtHead(_ head: LogHead, in txn: inout WriteTransaction) throws -> (MerkleNodes, TreeFrontier) {
    guard let nodes else { throw StoreError.readOnly }
    var frontier = try txn.reading { try MerkleNodes.frontier(meta: meta, in: $0) } ?? TreeFrontier()
    if frontier.size > head.position.rawValue {
      throw StoreError.integrity(
        IntegrityProblem(
          position: head.position.next, kind: .treeMismatch,
          detail: "the Merkle tree covers \(frontier.size) records but the log ends at \(head.position)"))
    }
    if frontier.size < head.position.rawValue {
      try nodes.catchUp(&frontier, to: head.position, in: &txn)
      try MerkleNodes.saveFrontier(frontier, meta: meta, in: &txn)
    }
    return (nodes, frontier)
  }

  /// Builds the tree of a store from before it, or catches it up, in transactions of at most a
  /// million leaves, reporting ``RebuildProgress/tree(done:total:)``.
  func catchUpTree(progress: ((RebuildProgress) -> Void)?) throws(StoreError) {
    guard let nodes else { return }
    try StoreError.wrapping {
      while true {
        let done: Bool = try environment.write { txn in
          let head = try Self.loadHead(meta: meta, in: txn)
          var frontier = try txn.reading { try MerkleNodes.frontier(meta: meta, in: $0) } ?? TreeFrontier()
          guard frontier.size < head.position.rawValue else { return true }
          let target = LogPosition(min(head.position.rawValue, frontier.size + 1_000_000))
          try nodes.catchUp(&frontier, to: target, in: &txn) { size in
            progress?(.tree(done: Int(size), total: Int(head.position.rawValue)))
          }
          try MerkleNodes.saveFrontier(frontier, meta: meta, in: &txn)
          progress?(.tree(done: Int(frontier.size), total: Int(head.position.rawValue)))
          return target == head.position
        }
        if done { return }
      }
    }
  }

  // MARK: Heads and proofs

  /// The Merkle tree head at the log's head: the root over every record.
  public func treeHead() throws(StoreError) -> TreeHead {
    try readTree { txn, _, frontier in frontier.head }
  }

  /// The Merkle tree head of the log's first `size` records, as it was when the log had `size`
  /// records. Throws ``StoreError/invalidInput(_:)`` when the log is shorter.
  public func treeHead(size: UInt64) throws(StoreError) -> TreeHead {
    try readTree { txn, nodes, frontier in
      try Self.checkSize(size, within: frontier)
      if size == frontier.size { return frontier.head }
      guard size > 0 else { return TreeHead(size: 0, root: MerkleTree.emptyRoot) }
      return TreeHead(size: size, root: try MerkleTree.rootHash(0, size) { try nodes.subtree($0, $1, in: txn) })
    }
  }

  /// Proof that the record at `position` is in the tree of the first `treeSize` records (default:
  /// all of them). Throws ``StoreError/invalidInput(_:)`` when the position is not within
  /// `1...treeSize` or the log is shorter than `treeSize`.
  public func inclusionProof(for position: LogPosition, treeSize: UInt64? = nil) throws(StoreError) -> InclusionProof {
    try readTree { txn, nodes, frontier in
      let size = treeSize ?? frontier.size
      try Self.checkSize(size, within: frontier)
      guard position.rawValue >= 1, position.rawValue <= size else {
        throw StoreError.invalidInput("position \(position) is not among the first \(size) records")
      }
      let index = position.rawValue - 1
      let path = try MerkleTree.inclusionPath(index: index, size: size) { try nodes.subtree($0, $1, in: txn) }
      return InclusionProof(leafIndex: index, treeSize: size, path: path)
    }
  }

  /// Proof that the tree of the first `oldSize` records is a prefix of the tree of the first
  /// `newSize` (default: all of them).
  public func consistencyProof(from oldSize: UInt64, to newSize: UInt64? = nil) throws(StoreError) -> ConsistencyProof {
    try readTree { txn, nodes, frontier in
      let size = newSize ?? frontier.size
      try Self.checkSize(size, within: frontier)
      guard oldSize <= size else {
        throw StoreError.invalidInput("a tree of \(oldSize) records is not a prefix of one of \(size)")
      }
      let path = try MerkleTree.consistencyPath(old: oldSize, new: size) { try nodes.subtree($0, $1, in: txn) }
      return ConsistencyProof(oldSize: oldSize, newSize: size, path: path)
    }
  }

  /// Runs `body` in one read snapshot with the tree's storage and its right edge.
  private func readTree<R>(
    _ body: (borrowing ReadTransaction, MerkleNodes, TreeFrontier) throws -> R
  ) throws(StoreError) -> R {
    guard let nodes else { throw .treeUnavailable }
    return try StoreError.wrapping {
      try environment.read { txn in
        guard let frontier = try MerkleNodes.frontier(meta: meta, in: txn) else { throw StoreError.treeUnavailable }
        return try body(txn, nodes, frontier)
      }
    }
  }

  private static func checkSize(_ size: UInt64, within frontier: TreeFrontier) throws(StoreError) {
    guard size <= frontier.size else {
      throw .invalidInput("the log has \(frontier.size) records, fewer than \(size)")
    }
  }
}
