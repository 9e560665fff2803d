import Kalends

/// A wall-clock time for tests: `local(2026, 3, 29, 9, 30)`.
func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> LocalDateTime {
  LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)!
}

/// A parsed rule for tests.
func rule(_ text: String) throws -> RecurrenceRule { try RecurrenceRule(parsing: text) }

/// The wall-clock starts of every occurrence of `event` (bounded series only).
func occurrenceStarts(of event: Event) throws -> [LocalDateTime] {
  Array(try event.recurrenceSet().occurrences(from: .min, to: .max).map(\.local))
}

/// An event store with one calendar for events, for tests.
struct EventFixture {
  let store: Store
  let events: EventStore
  let calendar: EventCalendar

  init(_ store: Store) throws {
    self.store = store
    events = EventStore(store: store)
    calendar = try events.save(EventCalendar(title: "Work"))
  }

  /// A one-hour meeting on March 29, 2026 at 09:00 in `zone` (Berlin by default), not yet saved.
  func meeting(_ title: String = "Standup", zone: String? = "Europe/Berlin", rrule: String? = nil) throws -> Event {
    var event = Event(
      calendarID: calendar.id, title: title, start: local(2026, 3, 29, 9), end: local(2026, 3, 29, 10),
      timeZone: zone)
    if let rrule { event.recurrenceRules = [try rule(rrule)] }
    return event
  }

  /// The last `count` records of the log.
  func lastRecords(_ count: Int) throws -> [LogRecord] { try store.lastRecords(count) }

  /// The named fields of a record's payload.
  func fields(_ record: LogRecord) throws -> [String: PayloadValue] { try namedFields(record) }
}
