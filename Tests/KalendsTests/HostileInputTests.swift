import Foundation
import Kalends
import Testing

/// Hostile data through the library: each class gets a typed error and leaves the log head where it
/// was; expansion of a pathological rule ends quickly.
@Suite("Hostile input through the library")
struct HostileInputTests {
  /// An event store with one calendar, and the check that `body` throws `expected`'s case and
  /// writes nothing.
  func refuses(
    _ body: (EventStore, EventCalendar) throws -> Void, _ matches: (StoreError) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let calendar = try events.save(EventCalendar(title: "Work"))
      let head = try store.head()
      do {
        try body(events, calendar)
        Issue.record("no error", sourceLocation: sourceLocation)
      } catch let error as StoreError {
        #expect(matches(error), "\(error)", sourceLocation: sourceLocation)
        #expect(!error.description.isEmpty)
      }
      #expect(try store.head() == head, "a refused write moved the head", sourceLocation: sourceLocation)
    }
  }

  static func event(in calendar: EventCalendar, title: String = "x", from year: Int = 2026) -> Event {
    Event(
      calendarID: calendar.id, title: title, start: LocalDateTime(year: year, month: 1, day: 1, hour: 9),
      end: LocalDateTime(year: year, month: 1, day: 1, hour: 10), timeZone: "Europe/Berlin")
  }

  @Test func datesOutsideTheCalendarCannotBeMadeAndEndsBeforeStartsAreRefused() throws {
    #expect(LocalDateTime(year: 10_000, month: 1, day: 1) == nil)
    #expect(LocalDateTime(year: 0, month: 1, day: 1) == nil)
    #expect(LocalDateTime(wallClockSeconds: .max) == nil)
    try refuses(
      { events, calendar in
        var event = Self.event(in: calendar)
        event.end = LocalDateTime.min
        try events.save(event, span: .thisEvent)
      }, { $0 == .calendar(.datesInverted) })
  }

  @Test func aDailySeriesFromYearOneIsRefusedInsteadOfIndexingMillionsOfOccurrences() throws {
    let started = Date()
    try refuses(
      { events, calendar in
        var event = Self.event(in: calendar, from: 1)
        event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
        try events.save(event, span: .thisEvent)
      },
      {
        if case .calendar(.tooManyOccurrences) = $0 { return true }
        return false
      })
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func textLongerThanOneMebibyteIsRefused() throws {
    try refuses(
      { events, calendar in
        try events.save(Self.event(in: calendar, title: String(repeating: "x", count: (1 << 20) + 1)), span: .thisEvent)
      }, { $0 == .calendar(.invalidText(field: "the title", reason: "is longer than 1 MiB")) })
  }

  @Test(arguments: ["a\u{0}b", "bell\u{7}", "escape\u{1B}[31m", "delete\u{7F}"])
  func textWithControlCharactersIsRefused(title: String) throws {
    try refuses(
      { events, calendar in try events.save(Self.event(in: calendar, title: title), span: .thisEvent) },
      {
        if case .calendar(.invalidText(field: "the title", _)) = $0 { return true }
        return false
      })
  }

  @Test func aClientIdentifierWithANulIsRefused() throws {
    try refuses(
      { events, _ in try events.register(Client(id: "com.example\u{0}evil", name: "Evil")) },
      { $0 == .access(.invalidClientID("com.example\u{0}evil")) })
  }

  @Test func anIcalendarFileThatIsNotUTF8IsRefused() throws {
    let file =
      Array(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T090000Z\r\nDTEND:20260101T100000Z\r\nSUMMARY:a"
          .utf8) + [0xFF, 0xFE] + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
    try refuses(
      { events, calendar in try events.importICalendar(file, into: .calendar(calendar.id)) },
      {
        if case .iCalendar = $0 { return true }
        return false
      })
  }

  @Test(arguments: [
    "FREQ=SECONDLY;COUNT=100000000", "FREQ=DAILY;COUNT=100000000", "FREQ=YEARLY;BYMONTH=1;BYSETPOS=400",
    "FREQ=DAILY;INTERVAL=1000000000", "FREQ=MONTHLY;BYMONTHDAY=32", "FREQ=WEEKLY;BYDAY=9MO",
    "FREQ=YEARLY;UNTIL=99991231T000000Z;COUNT=3", String(repeating: "FREQ=DAILY;", count: 10_000),
  ])
  func absurdRulesAreRefusedWhenParsed(rule: String) {
    #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: rule) }
  }

  @Test func aRuleThatNeverMatchesEndsItsExpansionQuickly() throws {
    let started = Date()
    try withStore { store, _ in
      let events = EventStore(store: store)
      let calendar = try events.save(EventCalendar(title: "Work"))
      var event = Self.event(in: calendar)
      event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")]
      try events.save(event, span: .thisEvent)
      let forever = EventPredicate(
        start: LocalDateTime.min.wallClockSeconds, end: LocalDateTime.max.wallClockSeconds, calendars: [calendar.id])
      #expect(try events.instances(matching: forever).count <= 1, "at most the start itself")
    }
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func aWindowOfEightThousandYearsStreamsItsOccurrences() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let calendar = try events.save(EventCalendar(title: "Work"))
      var event = Self.event(in: calendar)
      event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
      try events.save(event, span: .thisEvent)
      let forever = EventPredicate(
        start: LocalDateTime.min.wallClockSeconds, end: LocalDateTime.max.wallClockSeconds, calendars: [calendar.id])
      var seen = 0
      try events.enumerateInstances(matching: forever) { _ in
        seen += 1
        return seen < 5_000
      }
      #expect(seen == 5_000)
    }
  }

  @Test func identifiersThatDoNotExistAreNotFound() throws {
    try refuses(
      { events, _ in try events.save(Self.event(in: EventCalendar(title: "Nowhere")), span: .thisEvent) },
      { $0.category == .notFound })
    try refuses(
      { events, calendar in try events.remove(Self.event(in: calendar), span: .thisEvent) },
      { $0.category == .notFound })
    try refuses(
      { events, _ in try events.privacySettings().setAccess(.denied, for: "com.nobody", service: .calendars) },
      { $0.category == .notFound })
    try withStore { store, _ in
      #expect(throws: StoreError.recordNotFound(99, head: 1)) { try store.record(at: 99) }
    }
  }
}
