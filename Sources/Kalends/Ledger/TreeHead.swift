/// The log's Merkle tree (RFC 9162 §2.1) at one size: how many records it covers and its root.
///
/// Leaf `i` is the hash record `i + 1` carries, so the tree head of size `n` commits to the first
/// `n` records, their order and every byte of them. Two heads of one log at sizes `m ≤ n` are
/// consistent when a ``ConsistencyProof`` connects them.
public struct TreeHead: Hashable, Sendable, CustomStringConvertible {
  /// How many records the tree covers: the log's first `size` positions.
  public let size: UInt64
  /// The tree's root hash (`SHA-256` of nothing for the empty tree).
  public let root: RecordHash

  /// Wraps a size and a root.
  public init(size: UInt64, root: RecordHash) {
    self.size = size
    self.root = root
  }

  public var description: String { "size \(size), root \(root.hex)" }
}
