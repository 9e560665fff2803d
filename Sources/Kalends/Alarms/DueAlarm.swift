/// An alarm that fires: one of an event's alarms for one occurrence, or one of an incomplete
/// reminder's for its due date (``EventStore/alarms(firingAfter:through:viewerZone:)``).
public struct DueAlarm: Hashable, Sendable {
  /// What the alarm is for.
  public enum Item: Hashable, Sendable {
    /// An event; for a series, the occurrence with this original start.
    case event(ObjectID, occurrence: LocalDateTime?)
    /// A reminder.
    case reminder(ObjectID)
  }

  /// The event occurrence or the reminder.
  public let item: Item
  /// When it fires: seconds since 1970 (UTC).
  public let fireTime: Int64
  /// The alarm's offset from the start or the due time, in seconds (negative: before).
  public let offset: Int64
  /// The event's or the reminder's title.
  public let title: String
  /// The occurrence's start, or the reminder's due time: seconds since 1970 (UTC); for an all-day
  /// event or a date-only reminder, the start of its day in the viewer's zone.
  public let start: Int64
  /// The occurrence's end (UTC seconds); `nil` for a reminder.
  public let end: Int64?
  /// Whether the event is all-day or the reminder due on a date only.
  public let isAllDay: Bool
  /// Where the event takes place.
  public let location: String?
  /// The calendar or reminders list it is in.
  public let calendarID: ObjectID
}
