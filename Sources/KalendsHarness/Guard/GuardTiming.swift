import Foundation

/// Times the product and its floor in alternating turns, so that drift of a shared machine falls
/// on both alike, and states the product's median as a multiple of the floor's.
struct GuardTiming {
  /// The figure's name in `Benchmarks/guards.tsv`.
  let name: String
  /// Each turn's time of the product, in nanoseconds.
  private(set) var ours: [Double] = []
  /// Each turn's time of the floor, in nanoseconds.
  private(set) var floor: [Double] = []

  init(_ name: String) {
    self.name = name
  }

  /// Runs `product` then `floorWork` once each, timed.
  mutating func turn(_ product: () throws -> Void, floor floorWork: () throws -> Void) rethrows {
    ours.append(try Self.time(product))
    floor.append(try Self.time(floorWork))
  }

  var oursMedian: Double { Self.median(ours) }
  var floorMedian: Double { Self.median(floor) }
  /// The product's median over the floor's: the figure the guard compares with its threshold.
  var ratio: Double { floorMedian > 0 ? oursMedian / floorMedian : .infinity }

  /// The time `body` takes, in nanoseconds of the monotonic clock.
  static func time(_ body: () throws -> Void) rethrows -> Double {
    let started = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - started)
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  /// `nanoseconds` for a person: µs below a millisecond, else ms.
  static func text(_ nanoseconds: Double) -> String {
    nanoseconds < 1e6 ? String(format: "%.1f µs", nanoseconds / 1e3) : String(format: "%.2f ms", nanoseconds / 1e6)
  }
}
