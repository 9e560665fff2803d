/// The right edge of the log's Merkle tree: the roots of the complete subtrees that the first
/// `size` leaves decompose into, largest first (one per set bit of `size`). Appending a leaf
/// costs one hash amortised; the root is their fold.
///
/// Kept in the store's metadata beside the head and advanced in the append's transaction, so the
/// tree is at the head whenever the log is.
package struct TreeFrontier: Hashable, Sendable {
  /// How many leaves.
  package private(set) var size: UInt64 = 0
  /// The subtree roots, largest (leftmost) first.
  package private(set) var hashes: [RecordHash] = []

  package init() {}

  /// Every how many heights a completed node is stored (`MerkleNodes`): heights 4, 8, 12, …
  package static let storedHeightStep = 4

  /// Appends leaf `size` and calls `completed` with each completed subtree at a stored height
  /// (height, index, hash).
  package mutating func append(
    _ leaf: RecordHash, completed: (Int, UInt64, RecordHash) throws -> Void
  ) rethrows {
    try append(subtree: leaf, height: 0, completed: completed)
  }

  /// Appends `leaves` in order, as many calls of ``append(_:completed:)`` would, calling
  /// `completed` in the same order: each run of 16 leaves that starts at a multiple of 16 is
  /// hashed level by level, two nodes at a time.
  package mutating func append(
    contentsOf leaves: UnsafeBufferPointer<RecordHash>, completed: (Int, UInt64, RecordHash) throws -> Void
  ) rethrows {
    var next = 0
    while next < leaves.count {
      if size % 16 == 0, leaves.count - next >= 16 {
        let root = Self.blockRoot(UnsafeBufferPointer(rebasing: leaves[next..<(next + 16)]))
        try append(subtree: root, height: 4, completed: completed)
        next += 16
      } else {
        try append(subtree: leaves[next], height: 0, completed: completed)
        next += 1
      }
    }
  }

  /// The root of 16 leaves: 15 node hashes in 8 calls.
  private static func blockRoot(_ leaves: UnsafeBufferPointer<RecordHash>) -> RecordHash {
    withUnsafeTemporaryAllocation(of: RecordHash.self, capacity: 8) { level in
      for i in 0..<4 {
        let (left, right) = MerkleTree.nodeHashes(
          leaves[4 * i], leaves[4 * i + 1], leaves[4 * i + 2], leaves[4 * i + 3])
        level.initializeElement(at: 2 * i, to: left)
        level.initializeElement(at: 2 * i + 1, to: right)
      }
      // Each step reads nodes 4i…4i+3 before it writes nodes 2i and 2i+1 over them.
      for i in 0..<2 {
        (level[2 * i], level[2 * i + 1]) = MerkleTree.nodeHashes(
          level[4 * i], level[4 * i + 1], level[4 * i + 2], level[4 * i + 3])
      }
      (level[0], level[1]) = MerkleTree.nodeHashes(level[0], level[1], level[2], level[3])
      return MerkleTree.nodeHash(level[0], level[1])
    }
  }

  /// Appends a complete subtree of `2^height` leaves at `size` (a multiple of its width).
  private mutating func append(
    subtree: RecordHash, height subtreeHeight: Int, completed: (Int, UInt64, RecordHash) throws -> Void
  ) rethrows {
    let width = UInt64(1) << subtreeHeight
    var node = subtree
    var height = subtreeHeight
    if height > 0, height % Self.storedHeightStep == 0 { try completed(height, size >> height, node) }
    var remaining = size >> height
    while remaining & 1 == 1 {
      node = MerkleTree.nodeHash(hashes.removeLast(), node)
      height += 1
      remaining >>= 1
      if height % Self.storedHeightStep == 0 { try completed(height, ((size + width) >> height) - 1, node) }
    }
    hashes.append(node)
    size += width
  }

  /// The tree's root.
  package var root: RecordHash {
    guard var root = hashes.last else { return MerkleTree.emptyRoot }
    for hash in hashes.dropLast().reversed() { root = MerkleTree.nodeHash(hash, root) }
    return root
  }

  /// The tree head.
  package var head: TreeHead { TreeHead(size: size, root: root) }

  /// The stored form: the size (8 bytes, big-endian) and the hashes.
  package var encoded: [UInt8] {
    var bytes = Payload.bigEndianBytes(size)
    for hash in hashes { hash.appendBytes(to: &bytes) }
    return bytes
  }

  /// Decodes the stored form; `nil` when it is malformed.
  package init?(encoded bytes: [UInt8]) {
    guard bytes.count >= 8, (bytes.count - 8) % 32 == 0 else { return nil }
    let size = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard (bytes.count - 8) / 32 == size.nonzeroBitCount else { return nil }
    self.size = size
    hashes = stride(from: 8, to: bytes.count, by: 32).map { RecordHash(bytes: bytes[$0..<($0 + 32)])! }
  }
}
