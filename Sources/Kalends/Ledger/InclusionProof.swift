/// Proof that one record is leaf `leafIndex` of the log's tree of `treeSize` leaves (RFC 9162
/// §2.1.3): the hashes of the sibling subtrees on the way from the leaf to the root, leaf first.
///
/// Checking it needs only the record's leaf hash and a trusted ``TreeHead`` of that size — no
/// store — and costs one hash per path entry.
public struct InclusionProof: Hashable, Sendable {
  /// The leaf's index: the record's position minus one.
  public let leafIndex: UInt64
  /// The size of the tree the proof is for.
  public let treeSize: UInt64
  /// The sibling hashes, from the leaf's up to the root's children.
  public let path: [RecordHash]

  /// Wraps the parts of a proof (as read from a bundle); ``check(leafHash:against:)`` says
  /// whether they hold.
  public init(leafIndex: UInt64, treeSize: UInt64, path: [RecordHash]) {
    self.leafIndex = leafIndex
    self.treeSize = treeSize
    self.path = path
  }

  /// The root the path leads to from `leafHash` (RFC 9162 §2.1.3.2).
  public func rootHash(leafHash: RecordHash) throws(ProofFailure) -> RecordHash {
    guard leafIndex < treeSize else { throw .indexOutOfRange(index: leafIndex, size: treeSize) }
    let expected = MerkleTree.inclusionRanges(index: leafIndex, size: treeSize).count
    guard path.count == expected else { throw .wrongLength(expected: expected, found: path.count) }
    var (fn, sn, r) = (leafIndex, treeSize - 1, leafHash)
    for p in path {
      guard sn != 0 else { throw .wrongLength(expected: expected, found: path.count) }
      if fn & 1 == 1 || fn == sn {
        r = MerkleTree.nodeHash(p, r)
        while fn & 1 == 0 && fn != 0 {
          fn >>= 1
          sn >>= 1
        }
      } else {
        r = MerkleTree.nodeHash(r, p)
      }
      fn >>= 1
      sn >>= 1
    }
    guard sn == 0 else { throw .wrongLength(expected: expected, found: path.count) }
    return r
  }

  /// Checks that the record with `leafHash` is leaf ``leafIndex`` of the tree `head` describes.
  public func check(leafHash: RecordHash, against head: TreeHead) throws(ProofFailure) {
    guard head.size == treeSize else { throw .sizeMismatch(proof: treeSize, head: head.size) }
    let computed = try rootHash(leafHash: leafHash)
    guard computed == head.root else { throw .rootMismatch(computed: computed, expected: head.root) }
  }
}
