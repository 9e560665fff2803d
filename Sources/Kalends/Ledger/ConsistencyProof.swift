/// Proof that the log's tree of `oldSize` leaves is a prefix of its tree of `newSize` leaves (RFC
/// 9162 §2.1.4): nothing the old head committed to was changed, dropped or reordered, only
/// records appended.
///
/// Checking it needs only the two heads — no store. An auditor who kept an old head checks a new
/// one with it before trusting anything the new one proves.
public struct ConsistencyProof: Hashable, Sendable {
  /// The size of the older tree.
  public let oldSize: UInt64
  /// The size of the newer tree.
  public let newSize: UInt64
  /// The hashes of the proof, in the order of RFC 9162 §2.1.4.1.
  public let path: [RecordHash]

  /// Wraps the parts of a proof; ``check(from:to:)`` says whether they hold.
  public init(oldSize: UInt64, newSize: UInt64, path: [RecordHash]) {
    self.oldSize = oldSize
    self.newSize = newSize
    self.path = path
  }

  /// Checks that `old` and `new` are heads of one log, `new` extending `old` (RFC 9162
  /// §2.1.4.2). Heads of equal size must be equal; the empty tree is a prefix of every tree.
  public func check(from old: TreeHead, to new: TreeHead) throws(ProofFailure) {
    guard old.size == oldSize else { throw .sizeMismatch(proof: oldSize, head: old.size) }
    guard new.size == newSize else { throw .sizeMismatch(proof: newSize, head: new.size) }
    guard oldSize <= newSize else { throw .shrinking(old: oldSize, new: newSize) }
    if oldSize == 0 || oldSize == newSize {
      guard path.isEmpty else { throw .wrongLength(expected: 0, found: path.count) }
      if oldSize == newSize, old.root != new.root { throw .rootMismatch(computed: old.root, expected: new.root) }
      return
    }
    let expected = MerkleTree.consistencyRanges(old: oldSize, new: newSize).count
    guard path.count == expected else { throw .wrongLength(expected: expected, found: path.count) }
    var hashes = path[...]
    // An old tree whose size is a power of two is a node of the new one: the path starts above it.
    if oldSize & (oldSize - 1) == 0 { hashes = [old.root] + path }
    var (fn, sn) = (oldSize - 1, newSize - 1)
    while fn & 1 == 1 {
      fn >>= 1
      sn >>= 1
    }
    var fr = hashes.first!
    var sr = fr
    for c in hashes.dropFirst() {
      guard sn != 0 else { throw .wrongLength(expected: expected, found: path.count) }
      if fn & 1 == 1 || fn == sn {
        fr = MerkleTree.nodeHash(c, fr)
        sr = MerkleTree.nodeHash(c, sr)
        while fn & 1 == 0 && fn != 0 {
          fn >>= 1
          sn >>= 1
        }
      } else {
        sr = MerkleTree.nodeHash(sr, c)
      }
      fn >>= 1
      sn >>= 1
    }
    guard sn == 0 else { throw .wrongLength(expected: expected, found: path.count) }
    guard fr == old.root else { throw .rootMismatch(computed: fr, expected: old.root) }
    guard sr == new.root else { throw .rootMismatch(computed: sr, expected: new.root) }
  }
}
