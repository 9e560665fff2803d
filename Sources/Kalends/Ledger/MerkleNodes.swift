package import LMDB

/// Where the log's Merkle tree lives: the leaves are the hashes the records carry (the last 32
/// bytes of each stored record), and the `tree` database holds every complete node at a height
/// that is a multiple of ``TreeFrontier/storedHeightStep`` (4, 8, 12, …), one entry per node.
/// A node is keyed by when it was completed — the tree size that completed it, then its height:
/// `((index + 1) << height) << 6 | height`, big-endian — so that every node is appended at the
/// end of the database and its pages are filled. The nodes between are recomputed when a proof
/// needs them, from at most 8 stored hashes each.
package struct MerkleNodes {
  let tree: Database
  let log: Database

  /// The nodes kept in `tree`, over the records of `log`.
  package init(tree: Database, log: Database) {
    self.tree = tree
    self.log = log
  }

  /// The key of a node: the tree size that completed it, then its height in the low 6 bits.
  static func key(_ height: Int, _ index: UInt64) -> BigEndianKey<UInt64> {
    BigEndianKey(((index + 1) << height) << 6 | UInt64(height))
  }

  /// Stores a completed node, after every node completed before it.
  package func put(_ height: Int, _ index: UInt64, _ hash: RecordHash, in txn: inout WriteTransaction) throws {
    try hash.withBytes { bytes in try txn.put(bytes, forKey: Self.key(height, index), in: tree, options: .append) }
  }

  /// The stored node (height, index), or `nil`.
  func stored(_ height: Int, _ index: UInt64, in txn: borrowing ReadTransaction) throws -> RecordHash? {
    try txn.withValue(forKey: Self.key(height, index), in: tree) { bytes in
      bytes.withUnsafeBytes { RecordHash(bytes: $0) }
    } ?? nil
  }

  /// Leaf `index`: the hash record `index + 1` carries.
  func leaf(_ index: UInt64, in txn: borrowing ReadTransaction) throws -> RecordHash {
    let hash = try txn.withValue(forKey: BigEndianKey(index + 1), in: log) { bytes in
      bytes.withUnsafeBytes { buffer in
        buffer.count > 32 ? RecordHash(bytes: buffer[(buffer.count - 32)...]) : nil
      }
    }
    guard let hash, let hash else {
      throw StoreError.integrity(
        IntegrityProblem(
          position: LogPosition(index + 1), kind: .missingRecord,
          detail: "the Merkle tree needs record \(index + 1), which is missing or malformed"))
    }
    return hash
  }

  /// The complete subtree (height, index): read when stored, else computed from the stored
  /// nodes or leaves below it.
  func subtree(_ height: Int, _ index: UInt64, in txn: borrowing ReadTransaction) throws -> RecordHash {
    if height == 0 { return try leaf(index, in: txn) }
    if height % TreeFrontier.storedHeightStep == 0 {
      guard let hash = try stored(height, index, in: txn) else {
        throw StoreError.integrity(
          IntegrityProblem(
            position: LogPosition((index << height) + 1), kind: .treeMismatch,
            detail: "the Merkle tree lacks its node at height \(height), index \(index)"))
      }
      return hash
    }
    return MerkleTree.nodeHash(
      try subtree(height - 1, 2 * index, in: txn), try subtree(height - 1, 2 * index + 1, in: txn))
  }

  /// The stored right edge, or `nil` when the tree was never built (a store from before it).
  static func frontier(meta: Database, in txn: borrowing ReadTransaction) throws -> TreeFrontier? {
    guard let bytes = try txn.value(forKey: MetaKey.treeFrontier, in: meta) else { return nil }
    guard let frontier = TreeFrontier(encoded: bytes) else {
      throw StoreError.integrity(
        IntegrityProblem(
          position: .none, kind: .treeMismatch, detail: "the stored right edge of the Merkle tree is malformed"))
    }
    return frontier
  }

  package static func saveFrontier(_ frontier: TreeFrontier, meta: Database, in txn: inout WriteTransaction) throws {
    try txn.put(frontier.encoded, forKey: MetaKey.treeFrontier, in: meta)
  }

  /// Appends to `frontier` the leaves of the records after it, up to `head`, storing the nodes
  /// they complete: builds the tree of a store from before it, or catches it up. Reads the log in
  /// batches, calling `progress` after each with the tree's size.
  func catchUp(
    _ frontier: inout TreeFrontier, to head: LogPosition, in txn: inout WriteTransaction,
    progress: ((UInt64) -> Void)? = nil
  ) throws {
    // A tree built from nothing replaces whatever nodes a damaged store kept without a right edge.
    if frontier.size == 0 { try txn.removeAll(in: tree) }
    var leaves: [RecordHash] = []
    leaves.reserveCapacity(65_536)
    while frontier.size < head.rawValue {
      leaves.removeAll(keepingCapacity: true)
      let first = frontier.size
      let count = Int(min(65_536, head.rawValue - first))
      try txn.reading { reader in
        for index in first..<(first + UInt64(count)) { leaves.append(try leaf(index, in: reader)) }
      }
      try leaves.withUnsafeBufferPointer { leaves in
        try frontier.append(contentsOf: leaves) { height, index, hash in try put(height, index, hash, in: &txn) }
      }
      progress?(frontier.size)
    }
  }
}
