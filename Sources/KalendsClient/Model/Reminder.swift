public import Foundation

/// A reminder: EventKit's `EKReminder`, as the server describes it (docs/server.md). Dates are
/// texts as the server writes them: a date (`2026-03-01`) for a reminder due on a day, a
/// wall-clock time with its zone's offset, or a floating time without one.
public struct Reminder: Sendable, Hashable, Decodable {
  /// Its identifier (`calendarItemIdentifier`); `nil` before it is saved.
  public internal(set) var id: String?
  /// The reminder list it belongs to.
  public var calendarID: String?
  /// The title.
  public var title: String
  /// Free text.
  public var notes: String?
  /// When it is due: a date, or a wall-clock time (in ``timeZone``, floating without one).
  public var dueDate: String?
  /// When work on it starts, written as ``dueDate`` is.
  public var startDate: String?
  /// The zone of its times (IANA); `nil` for floating times and dates.
  public var timeZone: String?
  /// 0 (none), 1 (highest) … 9 (lowest).
  public var priority: Int
  /// Whether it is done. Saving a repeating reminder with this set, and nothing else changed,
  /// completes the occurrence due and moves the series on, as Reminders does.
  public var isCompleted: Bool
  /// When it was completed, as the server recorded it.
  public internal(set) var completionDate: String?
  /// Its recurrence rules, in RRULE text.
  public var recurrenceRules: [String]
  /// Its version, as the server's entity tag gives it (`nil` before it is saved).
  public internal(set) var version: String?

  /// A new reminder in the list `calendarID`, to save with ``EventStore``'s `save(_:)`.
  public init(calendarID: String, title: String) {
    self.calendarID = calendarID
    self.title = title
    priority = 0
    isCompleted = false
    recurrenceRules = []
  }

  /// Makes it due on the day of `date` in `zone` (a date-only due date, as Reminders sets one
  /// without a time).
  public mutating func setDue(day date: Date, in zone: TimeZone) {
    dueDate = String(Event.wallClock(date, in: zone).prefix(10))
    timeZone = nil
  }

  /// Makes it due at `date`, as the wall-clock time of `zone`.
  public mutating func setDue(_ date: Date, in zone: TimeZone) {
    dueDate = Event.wallClock(date, in: zone)
    timeZone = zone.identifier
  }

  enum CodingKeys: String, CodingKey {
    case id
    case calendarID = "calendarId"
    case title, notes, dueDate, startDate, timeZone, priority
    case isCompleted = "completed"
    case completionDate, recurrenceRules, version
  }

  /// The JSON body that saves the fields an app sets; `completed` alone when `completing` (the
  /// body that completes an occurrence of a repeating reminder).
  func body(completing: Bool) -> [String: Any] {
    if completing { return ["completed": true] }
    var fields: [String: Any] = [
      "title": title, "priority": priority, "completed": isCompleted, "recurrenceRules": recurrenceRules,
      "notes": notes ?? "",
    ]
    if let calendarID { fields["calendarId"] = calendarID }
    fields["dueDate"] = dueDate.map { Event.withoutOffset($0) } ?? NSNull()
    fields["startDate"] = startDate.map { Event.withoutOffset($0) } ?? NSNull()
    fields["timeZone"] = timeZone ?? NSNull()
    return fields
  }
}
