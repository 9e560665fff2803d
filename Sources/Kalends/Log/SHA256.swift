internal import CSHA256

/// SHA-256 (FIPS 180-4): the log's hash chain, the digests of projections and of external
/// identifiers. It compresses blocks with the processor's SHA extensions where it has them
/// (CSHA256), and allocates nothing: a one-shot hash of a record costs the compression of its
/// blocks and little more.
package struct SHA256 {
  /// A digest: 32 bytes.
  package struct Digest: Sequence {
    /// The bytes, in order, in the memory of four words.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    fileprivate init(_ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
      withUnsafeMutableBytes(of: &words) { fill($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Calls `body` with the 32 bytes.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
      try Swift.withUnsafeBytes(of: words, body)
    }

    package func makeIterator() -> [UInt8].Iterator { withUnsafeBytes { Array($0) }.makeIterator() }
  }

  private var context = kalends_sha256_context()

  /// A hasher of nothing yet.
  package init() { kalends_sha256_init(&context) }

  /// Hashes `bytes` after what was hashed before.
  package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    kalends_sha256_update(&context, base, bytes.count)
  }

  /// The digest of everything hashed.
  package consuming func finalize() -> Digest {
    Digest { kalends_sha256_final(&context, $0) }
  }

  /// The digest of `bytes`.
  package static func hash(data bytes: UnsafeRawBufferPointer) -> Digest {
    Digest { kalends_sha256(bytes.baseAddress, bytes.count, $0) }
  }

  /// `SHA-256(0x01 ‖ children)` of 64 bytes of children: a Merkle tree's interior node.
  package static func node(children: UnsafeRawBufferPointer) -> Digest {
    precondition(children.count == 64)
    return Digest { kalends_sha256_node(children.baseAddress!.assumingMemoryBound(to: UInt8.self), $0) }
  }

  /// `SHA-256(0x01 ‖ children)` of two nodes at once: `children` holds 128 bytes (the first
  /// node's left and right child, then the second's) and `digests` receives 64 bytes (the two
  /// hashes in order). Interleaved where the processor has SHA extensions.
  package static func nodes2(children: UnsafeRawBufferPointer, into digests: UnsafeMutableRawBufferPointer) {
    precondition(children.count == 128 && digests.count == 64)
    kalends_sha256_nodes2(
      children.baseAddress!.assumingMemoryBound(to: UInt8.self),
      digests.baseAddress!.assumingMemoryBound(to: UInt8.self))
  }

  /// The digest of `bytes` computed with the portable compression function, also where the
  /// processor's extensions would be used: what other processors compute (for tests).
  package static func portableHash(data bytes: UnsafeRawBufferPointer) -> Digest {
    Digest { kalends_sha256_portable(bytes.baseAddress, bytes.count, $0) }
  }

  /// Whether blocks are compressed with the processor's SHA extensions.
  package static var isAccelerated: Bool { kalends_sha256_is_accelerated() != 0 }
}
