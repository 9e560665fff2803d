/// The Merkle tree of RFC 9162 §2.1 over a sequence of leaf hashes: node hashes, and the inclusion
/// and consistency paths of §2.1.3 and §2.1.4, computed from any source of subtree hashes.
///
/// Leaf `i` of the log's tree is the hash record `i + 1` carries, `SHA-256(0x00 ‖ record)`; an
/// interior node is `SHA-256(0x01 ‖ left ‖ right)`; the tree of `n` leaves splits at the largest
/// power of two below `n`.
package enum MerkleTree {
  /// The root of the tree of no leaves: `SHA-256()` of nothing.
  package static let emptyRoot = RecordHash(digest: SHA256.hash(data: UnsafeRawBufferPointer(start: nil, count: 0)))

  /// `SHA-256(0x01 ‖ left ‖ right)`.
  package static func nodeHash(_ left: RecordHash, _ right: RecordHash) -> RecordHash {
    let words = (
      left.w0.bigEndian, left.w1.bigEndian, left.w2.bigEndian, left.w3.bigEndian,
      right.w0.bigEndian, right.w1.bigEndian, right.w2.bigEndian, right.w3.bigEndian
    )
    return withUnsafeBytes(of: words) { RecordHash(digest: SHA256.node(children: $0)) }
  }

  /// The nodes over two independent pairs, `(a, b)` and `(c, d)`, hashed together: about the cost
  /// of one ``nodeHash(_:_:)`` where the processor has SHA extensions.
  package static func nodeHashes(
    _ a: RecordHash, _ b: RecordHash, _ c: RecordHash, _ d: RecordHash
  ) -> (RecordHash, RecordHash) {
    let words = (
      a.w0.bigEndian, a.w1.bigEndian, a.w2.bigEndian, a.w3.bigEndian,
      b.w0.bigEndian, b.w1.bigEndian, b.w2.bigEndian, b.w3.bigEndian,
      c.w0.bigEndian, c.w1.bigEndian, c.w2.bigEndian, c.w3.bigEndian,
      d.w0.bigEndian, d.w1.bigEndian, d.w2.bigEndian, d.w3.bigEndian
    )
    var out: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeBytes(of: words) { children in
      withUnsafeMutableBytes(of: &out) { SHA256.nodes2(children: children, into: $0) }
    }
    return (
      RecordHash(
        words: UInt64(bigEndian: out.0), UInt64(bigEndian: out.1), UInt64(bigEndian: out.2), UInt64(bigEndian: out.3)),
      RecordHash(
        words: UInt64(bigEndian: out.4), UInt64(bigEndian: out.5), UInt64(bigEndian: out.6), UInt64(bigEndian: out.7))
    )
  }

  /// `SHA-256(0x00 ‖ bytes)`: the hash of a leaf's data.
  package static func leafHash(_ bytes: some Collection<UInt8>) -> RecordHash {
    let array = Array(bytes)
    return array.withUnsafeBytes { RecordCodec.leafHash($0) }
  }

  /// The largest power of two smaller than `n` (`n` ≥ 2).
  static func split(_ n: UInt64) -> UInt64 {
    precondition(n >= 2)
    return 1 << (63 - (n - 1).leadingZeroBitCount)
  }

  /// `MTH(D[lo..<hi])` from `subtree`, which gives the hash of any complete, aligned subtree
  /// (height, index): leaves at height 0.
  package static func rootHash(
    _ lo: UInt64, _ hi: UInt64, subtree: (Int, UInt64) throws -> RecordHash
  ) rethrows -> RecordHash {
    let size = hi - lo
    precondition(size >= 1)
    if size & (size - 1) == 0, lo % size == 0 {
      let height = size.trailingZeroBitCount
      return try subtree(height, lo >> height)
    }
    let k = split(size)
    return nodeHash(try rootHash(lo, lo + k, subtree: subtree), try rootHash(lo + k, hi, subtree: subtree))
  }

  /// The inclusion path of leaf `index` in the tree of `size` leaves (RFC 9162 §2.1.3.1), from the
  /// leaf's sibling up.
  package static func inclusionPath(
    index: UInt64, size: UInt64, subtree: (Int, UInt64) throws -> RecordHash
  ) rethrows -> [RecordHash] {
    try inclusionRanges(index: index, size: size).map { try rootHash($0.lowerBound, $0.upperBound, subtree: subtree) }
  }

  /// The leaf ranges whose roots make the inclusion path of leaf `index` in the tree of `size`
  /// leaves, from the leaf's sibling up: the path's length, and what each hash covers.
  static func inclusionRanges(index: UInt64, size: UInt64) -> [Range<UInt64>] {
    precondition(index < size)
    var ranges: [Range<UInt64>] = []
    // Walk down from the root, collecting siblings; the path lists them leaf first.
    var (lo, hi) = (UInt64(0), size)
    while hi - lo > 1 {
      let k = split(hi - lo)
      if index < lo + k {
        ranges.append((lo + k)..<hi)
        hi = lo + k
      } else {
        ranges.append(lo..<(lo + k))
        lo += k
      }
    }
    return ranges.reversed()
  }

  /// The consistency path from the tree of `old` leaves to the tree of `new` (RFC 9162
  /// §2.1.4.1); empty when `old` is 0 or equals `new`.
  package static func consistencyPath(
    old: UInt64, new: UInt64, subtree: (Int, UInt64) throws -> RecordHash
  ) rethrows -> [RecordHash] {
    try consistencyRanges(old: old, new: new).map { try rootHash($0.lowerBound, $0.upperBound, subtree: subtree) }
  }

  /// The leaf ranges whose roots make the consistency path from `old` leaves to `new`, in the
  /// path's order.
  static func consistencyRanges(old: UInt64, new: UInt64) -> [Range<UInt64>] {
    precondition(old <= new)
    guard old > 0, old < new else { return [] }
    var ranges: [Range<UInt64>] = []
    // SUBPROOF(m, D[lo..<hi], b), walked down iteratively.
    var (m, lo, hi, whole) = (old, UInt64(0), new, true)
    while m != hi - lo {
      let k = split(hi - lo)
      if m <= k {
        ranges.append((lo + k)..<hi)
        hi = lo + k
      } else {
        ranges.append(lo..<(lo + k))
        m -= k
        lo += k
        whole = false
      }
    }
    if !whole { ranges.append(lo..<hi) }
    return ranges.reversed()
  }
}
