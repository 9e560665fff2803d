// The range and audit benchmarks' fixtures outside package-benchmark (see Benchmarks/README.md).
//
//   range-workload prepare [audit]   build the cached stores (the 1M-event calendar, its SQLite peer,
//                                    and with `audit` the 10M-record audit log) when missing
//   range-workload summary           JSON for Benchmarks/scripts/bench-range: results per query of every window
//                                    set, the count check against SQLite, records, index sizes
//   range-workload query LENGTH SCOPE TIMES [events]
//                                    run Kalends' instances(matching:) (with `events`,
//                                    events(matching:), which reads each event's state) over TIMES
//                                    windows (week|month, one|all), for perf and callgrind; prints
//                                    the mean and quartiles per query
//   range-workload floors [TIMES]    Kalends' instances(matching:) beside the floors (LMDB per
//                                    calendar and global, tuned SQLite) over the first TIMES windows
//                                    (default 2,000) of each set, interleaved: p50 per query and the
//                                    ratios, a quick look outside the harness (Benchmarks/scripts/bench-range
//                                    gives the figures)
//   range-workload census [YEAR]     count, by kind of event, the instances the date-range index of
//                                    the 1M-event calendar holds below a horizon of January 1 of YEAR
//                                    (2031, the cached store's: two years after its latest start)

import Foundation
import Kalends
import KalendsSynthetic
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
case "floors" where arguments.count <= 2:
  guard let times = arguments.count == 2 ? Int(arguments[1]) : 2_000, times > 0 else {
    FileHandle.standardError.write(Data("usage: range-workload floors [TIMES]\n".utf8))
    exit(64)
  }
  let fixture = try RangeFixture.shared()
  func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
  }
  print("window                  Kalends   floor (a)   floor (b)   tuned SQLite   Kalends ÷ floor   SQLite ÷ Kalends")
  for windows in RangeWindows.all() {
    try fixture.checkCounts(windows)
    let kinds = RangeFloors.Kind.allCases.filter { $0 != .global || windows.scope == .allCalendars }
    var ours: [Double] = []
    var floors: [RangeFloors.Kind: [Double]] = [:]
    for window in windows.windows.prefix(times) {
      let predicate = RangeWindows.predicate(window, fixture.calendars)
      let started = clock.now
      _ = try fixture.events.instances(matching: predicate)
      ours.append(microseconds(clock.now - started))
      for kind in kinds {
        let began = clock.now
        _ = try fixture.floors.query(window, kind)
        floors[kind, default: []].append(microseconds(clock.now - began))
      }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let kalends = median(ours)
    let floor = median(floors[windows.scope == .allCalendars ? .global : .calendars]!)
    let tuned = median(floors[.tunedSQLite]!)
    let global = floors[.global].map { String(format: "%9.1f", median($0)) } ?? "        –"
    print(
      windows.name.padding(toLength: 22, withPad: " ", startingAt: 0),
      String(format: "%9.1f   %9.1f", kalends, median(floors[.calendars]!)), "  " + global,
      String(format: "  %12.1f   %14.2f×   %15.2f×", tuned, kalends / floor, tuned / kalends))
  }
case "census" where arguments.count <= 2:
  guard let year = arguments.count == 2 ? Int(arguments[1]) : 2031,
    let horizon = LocalDateTime(year: year, month: 1, day: 1)
  else {
    FileHandle.standardError.write(Data("usage: range-workload census [YEAR]\n".utf8))
    exit(64)
  }
  // Series are counted by frequency and by whether their rule ends (COUNT or UNTIL); an occurrence
  // counts when its start, on the clock the index files it under, is before the horizon.
  var census: [String: (events: Int, instances: Int)] = [:]
  try SyntheticCalendar().forEachBatch { batch in
    for event in batch {
      guard event.isRecurring, let rule = event.recurrenceRules.first else {
        census["single", default: (0, 0)].events += 1
        census["single", default: (0, 0)].instances += 1
        continue
      }
      let set = try event.recurrenceSet()
      let limit = set.zone.map { $0.resolve(horizon) } ?? horizon.wallClockSeconds
      var instances = 0
      for occurrence in set.occurrences(from: .min, to: .max) {
        if (set.zone == nil ? occurrence.local.wallClockSeconds : occurrence.start) >= limit { break }
        instances += 1
      }
      let kind = "\(rule.frequency) \(rule.count == nil && rule.until == nil ? "open" : "ending")"
      census[kind, default: (0, 0)].events += 1
      census[kind, default: (0, 0)].instances += instances
    }
  }
  let total = census.values.reduce(0) { $0 + $1.instances }
  print("kind              events   instances  share")
  for (kind, counts) in census.sorted(by: { $0.key < $1.key }) {
    let share = String(format: "%5.1f %%", 100 * Double(counts.instances) / Double(total))
    print(
      kind.padding(toLength: 16, withPad: " ", startingAt: 0),
      String(format: "%8d %11d", counts.events, counts.instances),
      share)
  }
  print("total            \(String(format: "%8d %11d", census.values.reduce(0) { $0 + $1.events }, total))")
default:
  FileHandle.standardError.write(
    Data("usage: range-workload prepare [audit] | summary | query ... | floors [TIMES] | census\n".utf8))
  exit(64)
}
