// The recurrence benchmarks' expansions outside package-benchmark: their summaries, for
// `Benchmarks/scripts/bench-recurrence` to compare with python-dateutil's, and repeated expansions for
// `perf` or `valgrind --tool=callgrind`.
//
//   recurrence-workload summary            one JSON line per series: name, count, first, last, checksum
//   recurrence-workload expand NAME TIMES  expand the series named NAME (see RecurrenceWorkload) TIMES times

import BenchmarkSupport
import Foundation
import Kalends

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "summary" where arguments.count == 1:
  for series in RecurrenceWorkload.series {
    let summary = RecurrenceWorkload.summarize(try RecurrenceWorkload.recurrenceSet(series))
    let line: [String: Any] = [
      "name": series.name, "rule": series.rule, "start": series.start, "zone": RecurrenceWorkload.zone,
      "count": summary.count, "checksum": summary.checksum,
      "first": [summary.first?.local ?? "", summary.first?.start ?? 0],
      "last": [summary.last?.local ?? "", summary.last?.start ?? 0],
    ]
    let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
  }
case "expand" where arguments.count == 3:
  guard let series = RecurrenceWorkload.series.first(where: { $0.name == arguments[1] }), let times = Int(arguments[2])
  else {
    FileHandle.standardError.write(Data("recurrence-workload: unknown series or count\n".utf8))
    exit(64)
  }
  let set = try RecurrenceWorkload.recurrenceSet(series)
  let clock = ContinuousClock()
  let started = clock.now
  var checksum: Int64 = 0
  for _ in 0..<times { checksum &+= RecurrenceWorkload.summarize(set).checksum }
  let seconds = (clock.now - started) / .seconds(1)
  print("expand: \(times) × \(series.name) in \(seconds) s, \(seconds / Double(times) * 1e3) ms each (\(checksum))")
default:
  FileHandle.standardError.write(Data("usage: recurrence-workload summary | expand NAME TIMES\n".utf8))
  exit(64)
}
