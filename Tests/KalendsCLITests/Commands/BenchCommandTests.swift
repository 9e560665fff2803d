import Foundation
import Kalends
import KalendsSynthetic
import KalendsTestSupport
import Testing

@Suite("Command line: bench")
struct BenchCommandTests {
  /// A generated store of `events` synthetic events.
  static func generated(_ events: Int, in directory: TemporaryDirectory) throws {
    let result = try CLI.run(["bench", "generate", "--store", directory.storePath, "--events", "\(events)"])
    try #require(result.status == 0, "\(result.stderr)")
  }

  @Test func rangeAnswersTheSameWindowsAsTheLibraryOverTheStoresCalendars() throws {
    let directory = TemporaryDirectory("bench")
    try Self.generated(400, in: directory)
    let result = try CLI.run([
      "bench", "range", "--store", directory.storePath, "--from", "2020-01-01", "--to", "2030-01-01",
      "--windows", "25", "--seed", "3", "--format", "json",
    ])
    try #require(result.status == 0, "\(result.stderr)")
    let report = try #require(try json(result.stdout) as? [String: Any])
    let kinds = try #require(report["kinds"] as? [[String: Any]])
    #expect(report["calendars"] as? Int == SyntheticCalendar.calendarCount)

    // The oracle: the same windows, drawn over the calendars sorted by id, answered one by one.
    let store = EventStore(store: try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)))
    let calendars = try store.calendars(for: .events).map(\.id).sorted()
    let expected = try RangeWindows.all(
      count: 25, seed: 3, span: RangeWindows.firstSecond..<RangeWindows.lastSecond, calendarCount: calendars.count
    ).map { windows in
      let total = try windows.windows.reduce(0) {
        $0 + (try store.instances(matching: RangeWindows.predicate($1, calendars)).count)
      }
      return (windows.name, Double(total) / 25)
    }
    #expect(kinds.map { $0["window"] as? String } == expected.map(\.0))
    #expect(kinds.map { $0["meanResults"] as? Double } == expected.map(\.1))
    #expect(expected.contains { $0.1 > 0 }, "the windows find events")
    for kind in kinds {
      let p50 = try #require(kind["p50Nanoseconds"] as? Double)
      let p99 = try #require(kind["p99Nanoseconds"] as? Double)
      #expect(p50 > 0 && p99 >= p50, "\(kind)")
    }
  }

  @Test func rangeRefusesASpanShorterThanAWindowAndAStoreWithoutEventCalendars() throws {
    let store = try CLIStore()
    let short = try store.run(["bench", "range", "--from", "2026-01-01", "--to", "2026-01-20"])
    #expect(short.status == 65 && short.stderr.contains("more than 30 days"), "\(short.stderr)")
    let empty = try store.run(["bench", "range"])
    #expect(empty.status == 65 && empty.stderr.contains("no event calendar"), "\(empty.stderr)")
  }

  @Test func generateRefusesAStoreThatExists() throws {
    let store = try CLIStore()
    let result = try store.run(["bench", "generate", "--events", "1"])
    #expect(
      result.status == 67 && result.stderr.contains("already holds a store"), "as init: a conflict, \(result.stderr)")
  }
}
