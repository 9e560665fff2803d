/// One event or occurrence in a time window, as the date-range index returns it: enough to draw it
/// in a calendar view; fetch the full ``Event`` with ``EventStore/event(withID:occurrence:)`` or ask
/// ``EventStore/events(matching:)`` for both at once.
public struct EventInstance: Hashable, Sendable, CustomStringConvertible {
  /// The item identifier (the series' for an occurrence).
  public let id: ObjectID
  /// The calendar.
  public let calendarID: ObjectID
  /// The original wall-clock start: with ``id``, the occurrence's identity. For a single event,
  /// its start.
  public let occurrenceDate: LocalDateTime
  /// The start, UTC seconds since 1970 (floating and all-day events placed in the query's zone).
  public let start: Int64
  /// The end (exclusive), UTC seconds since 1970.
  public let end: Int64
  /// Whether it is an occurrence of a recurring series.
  public let isRecurring: Bool
  /// Whether it is an occurrence changed on its own.
  public let isDetached: Bool
  /// Whether it lasts whole days.
  public let isAllDay: Bool

  public var description: String {
    "\(id) @ \(occurrenceDate) [\(start), \(end))" + (isDetached ? " detached" : "")
  }

  /// The order of query results: by start, then identifier, then occurrence.
  static func precedes(_ a: EventInstance, _ b: EventInstance) -> Bool {
    if a.start != b.start { return a.start < b.start }
    if a.id != b.id { return a.id < b.id }
    return a.occurrenceDate < b.occurrenceDate
  }
}
