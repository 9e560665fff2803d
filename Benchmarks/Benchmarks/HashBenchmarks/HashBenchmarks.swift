import Benchmark
import BenchmarkSupport
import BoringSSLSHA256
import Crypto
import Kalends
import LibcryptoSHA256

// The floor under every append: the record's leaf hash, SHA-256(0x00 ‖ record), over a record of the
// workload's size (180 bytes with the prefix: three SHA-256 blocks once padded). Measured through
// swift-crypto in each call shape it offers, through the same BoringSSL called from C without
// swift-crypto's wrapper, and through OpenSSL's libcrypto as a yardstick. Not targets; they explain
// the batched-append ratio (see Benchmarks/README.md).

/// The bytes the log hashes for one workload record: the 0x00 prefix, then the record without its
/// own hash.
let hashed: [UInt8] =
  [0x00] + Array(repeating: UInt8(ascii: "x"), count: Workload.encodedSize(ofNote: Workload.note(1)) - 32)
/// Blocks in ``long``.
let longBlocks = 250
/// A long message, to measure the cost per 64-byte block without the cost per hash: 250 blocks once
/// padded (the 9 bytes of padding fit in the last).
let long = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * longBlocks - 9)

let benchmarks: @Sendable () -> Void = {
  let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]
  // One iteration is 1,000 hashes: time and allocations are shown per hash.
  let perHash = Benchmark.Configuration(
    metrics: metrics, warmupIterations: 5, scalingFactor: .kilo, maxDuration: .seconds(3))

  func hashes(_ name: String, _ hash: @escaping (UnsafeRawBufferPointer) -> Void) {
    Benchmark("Record hash/\(name)", configuration: perHash) { benchmark in
      hashed.withUnsafeBytes { bytes in
        for _ in benchmark.scaledIterations { hash(bytes) }
      }
    }
  }

  /// Hashes through a C function: `function(data, size, digest)`.
  func cHashes(
    _ name: String, _ function: @escaping @convention(c) (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?) -> Void
  ) {
    hashes(name) { bytes in
      var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
      withUnsafeMutableBytes(of: &digest) {
        function(bytes.baseAddress, bytes.count, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
      }
      blackHole(digest)
    }
  }

  // What RecordCodec.leafHash does for verification, where the prefix is not in front of the record.
  hashes("swift-crypto two updates") { bytes in
    var hasher = SHA256()
    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[..<1]))
    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[1...]))
    blackHole(hasher.finalize())
  }
  // What every append does (RecordCodec.encode writes the prefix in front of the record).
  hashes("swift-crypto one-shot") { bytes in
    blackHole(SHA256.hash(data: bytes))
  }
  // A hasher that has seen the prefix, copied for each record: the copy's first update copies the
  // context (copy-on-write) instead of initialising one.
  let prefixed: SHA256 = {
    var hasher = SHA256()
    hasher.update(data: [0x00])
    return hasher
  }()
  hashes("swift-crypto prefixed copy") { bytes in
    var hasher = prefixed
    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[1...]))
    blackHole(hasher.finalize())
  }
  // swift-crypto's own BoringSSL, SHA256() called from C: the same code without the Swift wrapper.
  cHashes("BoringSSL direct", boringssl_sha256_oneshot)
  // OpenSSL 3: SHA256_Init/Update/Final (deprecated, the cheapest), the one-shot SHA256(), which
  // fetches the implementation on each call, and EVP with a fresh or a reused context.
  cHashes("libcrypto low-level", libcrypto_sha256_context)
  cHashes("libcrypto SHA256()", libcrypto_sha256_oneshot)
  cHashes("libcrypto EVP Digest", libcrypto_sha256_evp_digest)
  cHashes("libcrypto EVP reused", libcrypto_sha256_evp_reused)

  // The compression function alone: four hashes of 250 blocks per iteration, shown per block.
  let perBlock = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 5, scalingFactor: .kilo, maxDuration: .seconds(3))
  Benchmark("Block/swift-crypto", configuration: perBlock) { benchmark in
    long.withUnsafeBytes { bytes in
      for _ in 0..<(benchmark.scaledIterations.count / longBlocks) { blackHole(SHA256.hash(data: bytes)) }
    }
  }
  Benchmark("Block/libcrypto", configuration: perBlock) { benchmark in
    long.withUnsafeBytes { bytes in
      var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
      for _ in 0..<(benchmark.scaledIterations.count / longBlocks) {
        withUnsafeMutableBytes(of: &digest) {
          libcrypto_sha256_context(bytes.baseAddress, bytes.count, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        blackHole(digest)
      }
    }
  }
}
