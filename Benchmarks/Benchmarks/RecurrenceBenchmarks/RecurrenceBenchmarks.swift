import Benchmark
import BenchmarkSupport
import Kalends

// Expanding 10,000 occurrences of a weekly BYDAY rule and of a monthly BYSETPOS rule in a zone with
// daylight-saving time, each resolved to UTC instants, as a range query of a repeating event does.
// `Benchmarks/scripts/bench-recurrence` runs this suite and the same expansions with python-dateutil and zoneinfo,
// and prints the ratio (issue 3's target: at least 20 times faster).

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 3, maxDuration: .seconds(5),
    maxIterations: 2_000)

  for series in RecurrenceWorkload.series {
    // The set (rule parsed, zone loaded) is built once; each iteration expands it from the start.
    let set: RecurrenceSet
    do { set = try RecurrenceWorkload.recurrenceSet(series) } catch { fatalError("\(series.name): \(error)") }
    let window = RecurrenceWorkload.window(of: set)
    Benchmark("Expand 10000/\(series.name)", configuration: configuration) { _ in
      var count = 0
      var checksum: Int64 = 0
      for occurrence in set.occurrences(from: window.from, to: window.to) {
        count += 1
        checksum &+= occurrence.start
      }
      precondition(count == RecurrenceWorkload.occurrences)
      blackHole(checksum)
    }
  }
}
