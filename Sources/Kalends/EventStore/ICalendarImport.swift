/// Where an iCalendar import puts its items.
public enum ImportDestination: Sendable, Hashable {
  /// An existing calendar, which must allow the kinds of item the file holds.
  case calendar(ObjectID)
  /// A new calendar, created in the import's transaction; its allowed entity types are set to what
  /// the file holds.
  case newCalendar(EventCalendar)
}

/// What an iCalendar import did.
public struct ICalendarImport: Sendable, Hashable {
  /// The calendar the items are in.
  public var calendarID: ObjectID
  /// Items that were new.
  public var created = 0
  /// Items that existed (same `UID`) and were replaced, the file having a higher `SEQUENCE`.
  public var updated = 0
  /// Items that existed with the same or a higher `SEQUENCE` and were left alone.
  public var unchanged = 0
  /// The log position of the last record written; `nil` when nothing was written.
  public var lastPosition: LogPosition?
}
