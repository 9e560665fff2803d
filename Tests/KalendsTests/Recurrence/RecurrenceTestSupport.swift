import Kalends

/// A wall-clock time from iCalendar text (`20240310T023000` or `20240310`).
func local(_ text: String) -> LocalDateTime { LocalDateTime(iCalendar: text)! }

/// UTC seconds of iCalendar UTC text (`20240310T073000Z`).
func utc(_ text: String) -> Int64 { LocalDateTime(iCalendar: text.dropLast())!.wallClockSeconds }

/// A recurrence set from text, as the event model will build it.
func series(
  _ start: String, _ rules: String..., zone: String? = nil, allDay: Bool = false, duration: Int64 = 0,
  rdates: [String] = [], exdates: [String] = []
) throws -> RecurrenceSet {
  try RecurrenceSet(
    start: local(start), isAllDay: allDay, zone: zone.map { try ZoneRules.named($0) }, duration: duration,
    rules: rules.map { try RecurrenceRule(parsing: $0) }, recurrenceDates: rdates.map(local),
    exceptionDates: exdates.map(local))
}

extension RecurrenceSet {
  /// The first `count` occurrences from DTSTART on, at most 1,000 years ahead.
  func first(_ count: Int, viewerZone: ZoneRules? = nil) -> [Occurrence] {
    let from = (zone ?? viewerZone ?? .utc).resolve(start) - 86_400
    return Array(occurrences(from: from, to: from + 1000 * 366 * 86_400, viewerZone: viewerZone).prefix(count))
  }

  /// The wall-clock starts of the first `count` occurrences, as iCalendar text.
  func firstLocals(_ count: Int) -> [String] { first(count).map(\.local.iCalendarText) }
}
