/// The checks an event must pass before it is saved, in the order EventKit reports them.
enum EventValidator {
  /// `event` checked and normalised: an all-day event is floating and spans whole days (its start
  /// goes to midnight, its end to the next midnight, at least one day after the start). With
  /// `allowsOverlap`, a series may last longer than the interval between its occurrences (legal in
  /// RFC 5545, and found in real files); EventKit's API refuses it, so saves check it apart
  /// (``overlaps(_:)``).
  static func validated(_ event: Event, allowsOverlap: Bool = false) throws(StoreError) -> Event {
    guard event.calendarID != nil else { throw .calendar(.noCalendar) }
    guard var start = event.start else { throw .calendar(.noStartDate) }
    guard var end = event.end else { throw .calendar(.noEndDate) }
    guard end >= start else { throw .calendar(.datesInverted) }
    try EventStore.checkText(event.title, field: "the title")
    try EventStore.checkText(event.location, field: "the location")
    try EventStore.checkText(event.notes, field: "the notes")
    try EventStore.checkText(event.url, field: "the URL")
    try EventStore.checkText(event.externalID, field: "the external identifier")
    for property in event.additionalProperties { try EventStore.checkText(property, field: "an iCalendar property") }
    for category in event.categories { try EventStore.checkText(category, field: "a category") }
    try EventStore.checkClientProperties(event.clientProperties)
    try EventStore.checkAlarms(event.alarms)
    guard event.sequence >= 0 else { throw .calendar(.invalidText(field: "the sequence", reason: "is negative")) }
    var checked = event
    if event.isAllDay {
      let day: Int64 = 86_400
      let firstDay = start.dayNumber
      let lastDay = end.isMidnight ? end.dayNumber : end.dayNumber + 1
      start = LocalDateTime(unchecked: firstDay * day)
      end = LocalDateTime(unchecked: max(lastDay, firstDay + 1) * day)
      checked.start = start
      checked.end = end
      checked.timeZone = nil
    }
    guard checked.exceptionDates.count <= maximumExceptionDates else {
      throw .calendar(.tooManyExceptionDates(limit: maximumExceptionDates, count: checked.exceptionDates.count))
    }
    let set = try SeriesEditor.recurrenceSet(of: checked)
    // Rules with COUNTs small enough in total cannot exceed the limit: no need to expand them.
    let countedAtMost = checked.recurrenceRules.reduce(checked.recurrenceDates.count) { total, rule in
      total + (rule.count ?? maximumIndexedOccurrences + 1)
    }
    if checked.isRecurring && countedAtMost > maximumIndexedOccurrences { try checkIndexedOccurrences(of: set) }
    if !allowsOverlap && overlaps(checked) { throw .calendar(.durationGreaterThanRecurrence) }
    return checked
  }

  /// Whether a series lasts longer than the interval between its occurrences, so that they overlap.
  static func overlaps(_ event: Event) -> Bool {
    guard let start = event.start, let end = event.end else { return false }
    let duration = end.wallClockSeconds - start.wallClockSeconds
    return event.recurrenceRules.contains { duration > shortestInterval(of: $0) }
  }

  /// The duration of an event, in wall-clock seconds.
  static func duration(_ event: Event) -> Int64? {
    guard let start = event.start, let end = event.end else { return nil }
    return end.wallClockSeconds - start.wallClockSeconds
  }

  /// The most occurrences of one series that the date-range index materialises (those before its
  /// horizon, at most ten years ahead); a series with more is refused, so that no save writes
  /// millions of index entries or runs for minutes.
  static let maximumIndexedOccurrences = 100_000

  /// The most exception dates (EXDATE) one series may have: every expansion of the series walks
  /// them, so that a series with hundreds of thousands made each query over it cost seconds.
  /// Real calendars have a few hundred at most.
  static let maximumExceptionDates = 10_000

  /// Refuses a series with more than ``maximumIndexedOccurrences`` occurrences before the latest
  /// horizon a record written now can have. Stops counting there, so the check is bounded too.
  static func checkIndexedOccurrences(of set: RecurrenceSet) throws(StoreError) {
    let bound = RangeProjection.horizon(for: .now(), reaching: .max)
    var count = 0
    for _ in set.occurrences(from: .min, to: bound) {
      count += 1
      if count > maximumIndexedOccurrences {
        throw .calendar(
          .tooManyOccurrences(
            limit: maximumIndexedOccurrences, before: LocalDateTime(wallClockSeconds: bound) ?? .max))
      }
    }
  }

  /// The shortest time between two periods of `rule`, in seconds: a day, a week, 28 days or
  /// 365 days, times the interval (EventKit's check, which ignores BY-parts).
  static func shortestInterval(of rule: RecurrenceRule) -> Int64 {
    let days: Int64 =
      switch rule.frequency {
      case .daily: 1
      case .weekly: 7
      case .monthly: 28
      case .yearly: 365
      }
    return days * 86_400 * Int64(rule.interval)
  }
}
