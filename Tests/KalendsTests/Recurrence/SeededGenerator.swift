/// A deterministic random number generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }
}
