package import Kalends

/// How `--start`, `--end`, `--tz` and `--all-day` set an event's times.
///
/// A date makes an all-day event; `--all-day` takes the dates of times. Wall-clock times are in
/// `--tz`; else in the event's zone when it has a time of day (a floating event stays floating);
/// else, for a new or an all-day event, in ``defaultZone`` (floating without one). `floating`
/// (`--tz floating`) makes them floating. Instants are converted to that zone, or to UTC (which
/// the event then keeps) when there is none and the event is not made floating. Without `--end`, an existing event keeps its
/// length, one that becomes all-day keeps the days it covered (one day when it also moves), a
/// new all-day event lasts one day, and a new event with a time of day lasts ``newEventLength``
/// when one is set (the command line's hour) or needs `--end` (the API's).
package struct EventTiming {
  package var start: DateArgument?
  package var end: DateArgument?
  package var zone: ZoneRules?
  package var allDay: Bool
  /// Seconds a new event with a time of day lasts without an end; `nil`: the end is required.
  package var newEventLength: Int64?
  /// The zone of wall-clock times for an event without a time of day yet when `zone` is not
  /// given: the command line's person's zone; `nil` (the API's): floating.
  package var defaultZone: ZoneRules?
  /// Whether the times become floating, their wall clock kept.
  package var floating = false

  package init(start: DateArgument?, end: DateArgument?, zone: ZoneRules?, allDay: Bool) {
    self.start = start
    self.end = end
    self.zone = zone
    self.allDay = allDay
  }

  /// Whether any timing option was given.
  package var isEmpty: Bool { start == nil && end == nil && zone == nil && !allDay && !floating }

  /// Sets the times of `event` (a new one has none yet).
  package func apply(to event: inout Event) throws(RequestError) {
    guard !isEmpty else { return }
    if !allDay, let start, let end, start.value.isDate != end.value.isDate {
      throw .invalidInput("--start and --end: give both as dates (all-day) or both as times, or add --all-day")
    }
    let becomesAllDay = allDay || (start ?? end)?.value.isDate ?? event.isAllDay
    let given = [start, end].compactMap { $0 }
    var zoneRules = zone
    if zoneRules == nil, !floating {
      let hasTimeOfDay = event.start != nil && !event.isAllDay
      zoneRules = hasTimeOfDay ? try DateArgument.zone(event.timeZone) : defaultZone
    }
    if floating, !becomesAllDay, given.contains(where: \.value.isInstant) {
      throw .invalidInput("--tz floating: give wall-clock times, such as 2026-03-29T09:30:00, not instants")
    }
    if zoneRules == nil, !becomesAllDay, given.contains(where: \.value.isInstant) {
      guard given.allSatisfy(\.value.isInstant) else {
        throw .invalidInput(
          "--start and --end: one has an offset and the other not — give both with or both without, or add --tz")
      }
      zoneRules = .utc
    }
    guard let newStart = try start?.wallClock(in: zoneRules) ?? event.start else {
      throw .invalidInput("--start is required")
    }
    let newEnd: LocalDateTime
    if let end {
      newEnd = try end.wallClock(in: zoneRules)
    } else if let oldStart = event.start, let oldEnd = event.end, becomesAllDay == event.isAllDay {
      guard
        let moved = LocalDateTime(
          wallClockSeconds: newStart.wallClockSeconds + oldEnd.wallClockSeconds - oldStart.wallClockSeconds)
      else { throw .invalidInput("--start: the event would end after the year 9999") }
      newEnd = moved
    } else if becomesAllDay {
      newEnd = (start == nil ? event.end : nil) ?? newStart  // the days it covered, or the day of the start
    } else if event.start == nil, let newEventLength {
      guard let later = LocalDateTime(wallClockSeconds: newStart.wallClockSeconds + newEventLength) else {
        throw .invalidInput("--start: the event would end after the year 9999")
      }
      newEnd = later
    } else {
      throw .invalidInput(
        event.start == nil
          ? "--end is required for an event with a time of day" : "--end is required when an all-day event gets a time")
    }
    event.start = newStart
    event.end = newEnd
    event.isAllDay = becomesAllDay
    event.timeZone = becomesAllDay ? nil : zoneRules?.identifier
  }
}
