/// Where an iCalendar import puts its items.
public enum ImportDestination: Sendable, Hashable {
  /// An existing calendar, which must allow the kinds of item the file holds.
  case calendar(ObjectID)
  /// A new calendar, created in the import's transaction; its allowed entity types are set to what
  /// the file holds.
  case newCalendar(EventCalendar)
  /// The live calendar an earlier import from `source` created (its ``EventCalendar/importSource``),
  /// as ``calendar(_:)``; when there is none, `new` is created as ``newCalendar(_:)``, recorded with
  /// `source`. So importing the same file again finds its calendar and, with nothing newer in the
  /// file, writes nothing.
  case source(String, new: EventCalendar)
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
  /// The components of the file that were not imported, by name, with how many of each
  /// (``ICalendar/skipped``).
  public var skipped: [String: Int] = [:]
  /// Whether the import created the calendar.
  public var createdCalendar = false
  /// The log position of the last record written; `nil` when nothing was written.
  public var lastPosition: LogPosition?
}
