package import Kalends

/// SplitMix64: a small, fast, seedable random number generator, the same on every platform, so
/// synthetic data, torture runs and randomised tests repeat exactly from their seed.
package struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// A version 4 UUID from the stream.
  package mutating func objectID() -> ObjectID {
    var bytes: [UInt8] = []
    for _ in 0..<2 { withUnsafeBytes(of: next().bigEndian) { bytes.append(contentsOf: $0) } }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    return ObjectID(bytes: bytes)!
  }
}
