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
    var node = leaf
    var height = 0
    var remaining = size
    while remaining & 1 == 1 {
      node = MerkleTree.nodeHash(hashes.removeLast(), node)
      height += 1
      remaining >>= 1
      if height % Self.storedHeightStep == 0 { try completed(height, ((size + 1) >> height) - 1, node) }
    }
    hashes.append(node)
    size += 1
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
