// The range and audit benchmarks' fixtures outside package-benchmark (see Benchmarks/README.md).
//
//   range-workload prepare [audit]   build the cached stores (the 1M-event calendar, its SQLite peer,
//                                    and with `audit` the 10M-record audit log) when missing
//   range-workload summary           JSON for tools/bench-range: results per query of every window
//                                    set, the count check against SQLite, records, index sizes
//   range-workload query LENGTH SCOPE TIMES [events]
//                                    run Kalends' instances(matching:) (with `events`,
//                                    events(matching:), which reads each event's state) over TIMES
//                                    windows (week|month, one|all), for perf and callgrind; prints
//                                    the mean and quartiles per query

import Foundation
import Kalends
import RangeSupport

let arguments = Array(CommandLine.arguments.dropFirst())
let clock = ContinuousClock()

switch arguments.first {
case "prepare":
  let fixture = try RangeFixture.shared()
  for windows in RangeWindows.all() { try fixture.checkCounts(windows) }
  if arguments.dropFirst().first == "audit" { _ = try AuditStore.cachedPath() }
case "summary":
  let fixture = try RangeFixture.shared()
  var sets: [String: Any] = [:]
  for windows in RangeWindows.all() {
    let checked = try fixture.checkCounts(windows)
    let counts = try windows.windows.prefix(1_000).map {
      try fixture.events.instances(matching: RangeWindows.predicate($0, fixture.calendars)).count
    }.sorted()
    sets[windows.name] = [
      "mean": Double(counts.reduce(0, +)) / Double(counts.count), "p50": counts[counts.count / 2],
      "min": counts.first!, "max": counts.last!, "checked": checked,
    ]
  }
  var report: [String: Any] = [
    "windows": sets, "records": Int(try fixture.store.head().position.rawValue),
    "sqliteRows": try fixture.sqlite.rowCount(), "indexBefore": try IndexSize.json(fixture.storePath),
  ]
  if let data = FileManager.default.contents(atPath: BenchCache.reportPath("rebuilt-index-size")) {
    report["indexAfterRebuild"] = try JSONSerialization.jsonObject(with: data)
  }
  let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
  print(String(decoding: data, as: UTF8.self))
case "query":
  guard (4...5).contains(arguments.count), let length = RangeWindows.Length(rawValue: arguments[1]),
    let times = Int(arguments[3]), arguments.count == 4 || arguments[4] == "events"
  else {
    FileHandle.standardError.write(Data("usage: range-workload query week|month one|all TIMES [events]\n".utf8))
    exit(64)
  }
  let decoded = arguments.count == 5
  let windows = RangeWindows(length, arguments[2] == "all" ? .allCalendars : .oneCalendar)
  let fixture = try RangeFixture.shared()
  let started = clock.now
  var results = 0
  var durations: [Duration] = []
  durations.reserveCapacity(times)
  for index in 0..<times {
    let window = windows.windows[index % windows.windows.count]
    let queryStarted = clock.now
    let predicate = RangeWindows.predicate(window, fixture.calendars)
    results +=
      try decoded
      ? fixture.events.events(matching: predicate).count : fixture.events.instances(matching: predicate).count
    durations.append(clock.now - queryStarted)
  }
  let elapsed = clock.now - started
  durations.sort()
  func percentile(_ p: Int) -> Double {
    let duration = durations[min(durations.count - 1, durations.count * p / 100)]
    return Double(duration.components.attoseconds) / 1e12 + Double(duration.components.seconds) * 1e6
  }
  let quartiles = [25, 50, 75, 99].map { "p\($0) \(Int(percentile($0).rounded())) µs" }.joined(separator: ", ")
  print("\(times) queries, \(results) results, \(elapsed / times) per query; \(quartiles)")
default:
  FileHandle.standardError.write(Data("usage: range-workload prepare [audit] | summary | query ...\n".utf8))
  exit(64)
}
