import Kalends
import KalendsSynthetic

extension SeededGenerator {
  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }
}
