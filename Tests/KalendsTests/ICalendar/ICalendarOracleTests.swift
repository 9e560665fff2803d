import Foundation
import Kalends
import KalendsTestSupport
import Testing

/// Import, query and export checked against independent implementations: `icalendar` parses the
/// original and the exported file, `recurring-ical-events` expands them, and both must list the
/// occurrences Kalends' range query returns after the import.
@Suite("iCalendar agrees with icalendar and recurring-ical-events")
struct ICalendarOracleTests {
  /// One file: imported, queried, exported, re-imported elsewhere and again into itself.
  private struct Checked {
    var name: String
    var original: String
    var exported: String
    var kalends: [OracleOccurrence]
    var roundTripped: [String]
    var state: [String]
    var headBefore: LogPosition
    var headAfter: LogPosition
  }

  private func check(_ name: String, _ bytes: [UInt8], in directory: TemporaryDirectory) throws -> Checked {
    let first = try EventStore(
      store: Store.create(at: directory.path + "/\(name)-a", options: .init(durability: .noSync)))
    let calendar = try ICalendarTesting.importNew(bytes, into: first)
    let kalends = try OracleOccurrence.kalends(
      first, calendar: calendar, from: ICalendarTesting.from, to: ICalendarTesting.to)
    let exported = try first.exportICalendar(calendars: [calendar]).serialized()
    let original = directory.path + "/\(name).ics"
    let export = directory.path + "/\(name)-exported.ics"
    try Data(bytes).write(to: URL(fileURLWithPath: original))
    try Data(exported.utf8).write(to: URL(fileURLWithPath: export))
    let second = try EventStore(
      store: Store.create(at: directory.path + "/\(name)-b", options: .init(durability: .noSync)))
    let copy = try ICalendarTesting.importNew(Array(exported.utf8), into: second)
    let headBefore = try first.store.head().position
    try first.importICalendar(Array(exported.utf8), into: .calendar(calendar))
    return Checked(
      name: name, original: original, exported: export, kalends: kalends,
      roundTripped: try ICalendarTesting.state(of: second, calendar: copy),
      state: try ICalendarTesting.state(of: first, calendar: calendar), headBefore: headBefore,
      headAfter: try first.store.head().position)
  }

  private func compare(_ checked: [Checked]) throws {
    var cases: [ICalendarOracle.Case] = []
    for (index, item) in checked.enumerated() {
      cases.append(.init(id: 2 * index, file: item.original, from: ICalendarTesting.from, to: ICalendarTesting.to))
      cases.append(.init(id: 2 * index + 1, file: item.exported, from: ICalendarTesting.from, to: ICalendarTesting.to))
    }
    let results = try ICalendarOracle.run(cases)
    for (index, item) in checked.enumerated() {
      let original = try #require(results[2 * index]).get()
      let exported = try #require(results[2 * index + 1]).get()
      #expect(!item.kalends.isEmpty, "\(item.name): nothing imported")
      #expect(
        ICalendarOracle.difference(item.kalends, original) == nil,
        "\(item.name), original: \(ICalendarOracle.difference(item.kalends, original) ?? "")")
      #expect(
        ICalendarOracle.difference(item.kalends, exported) == nil,
        "\(item.name), exported: \(ICalendarOracle.difference(item.kalends, exported) ?? "")")
      #expect(item.roundTripped == item.state, "\(item.name): import → export → import changed the state")
      #expect(item.headAfter == item.headBefore, "\(item.name): importing the export again wrote records")
    }
  }

  @Test func randomCalendarsImportToTheOccurrencesTheOracleFinds() throws {
    let directory = TemporaryDirectory("ical-random")
    var checked: [Checked] = []
    for seed in UInt64(1)...12 {
      let calendar = try RandomCalendar(seed: 0x1CA1_0000 + seed, events: 25)
      checked.append(try check("random-\(seed)", Array(calendar.text.utf8), in: directory))
    }
    try compare(checked)
  }

  @Test func realWorldShapedFilesImportToTheOccurrencesTheOracleFinds() throws {
    let directory = TemporaryDirectory("ical-corpus")
    var checked: [Checked] = []
    for name in ["google", "outlook", "apple", "thunderbird", "thisandfuture", "custom-zone", "overlapping"] {
      checked.append(try check(name, try ICalendarTesting.fixture(name), in: directory))
    }
    try compare(checked)
  }
}
