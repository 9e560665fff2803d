/// A reminder (EventKit's `EKReminder`): a task with an optional due date, in a calendar that
/// allows reminders.
public struct Reminder: Hashable, Sendable {
  /// The stable item identifier.
  public package(set) var id: ObjectID
  /// The calendar (list) it belongs to.
  public var calendarID: ObjectID?
  /// The identifier shared by every copy of it (iCalendar's `UID`).
  public var externalID: String
  /// The title.
  public var title: String
  /// Free text.
  public var notes: String?
  /// When work on it starts (EventKit's `startDateComponents`, iCalendar's `DTSTART`): a date and
  /// time in ``timeZone``, or with ``isDueDateOnly`` just a date; never after ``dueDate``.
  public var startDate: LocalDateTime?
  /// When it is due: a date and time, or with ``isDueDateOnly`` just a date.
  public var dueDate: LocalDateTime?
  /// Whether only the dates of ``dueDate`` and ``startDate`` count.
  public var isDueDateOnly: Bool
  /// The IANA time zone of ``dueDate`` and ``startDate``; `nil` for floating.
  public var timeZone: String?
  /// 0 (none), 1 (highest) … 9 (lowest), as iCalendar's `PRIORITY`.
  public var priority: Int
  /// Whether it is done.
  public var isCompleted: Bool
  /// When it was completed (set when saved completed, cleared when not).
  public var completionDate: Timestamp?
  /// Recurrence; a recurring reminder requires a due date.
  public var recurrenceRules: [RecurrenceRule]
  /// Alarms relative to the due date.
  public var alarms: [Alarm]
  /// iCalendar's `SEQUENCE`: the revision its organizer gave it. An import replaces a reminder only
  /// with a higher one.
  public var sequence: Int
  /// iCalendar properties Kalends does not model (`X-`, `PERCENT-COMPLETE`, …), as unfolded content
  /// lines, kept from an import and written again on export.
  public var additionalProperties: [String]
  /// The name a CalDAV client stored it under, when that is not its `UID`, as
  /// ``Event/resourceName``.
  public internal(set) var resourceName: String?
  /// The `ETag` of the account's object it was last synced from, as ``Event/remoteEntityTag``.
  public internal(set) var remoteEntityTag: String?
  /// The WebDAV dead properties of the calendar object resource holding it, as
  /// ``Event/clientProperties``.
  public var clientProperties: [String: String]
  /// When it was first saved.
  public internal(set) var creationDate: Timestamp?
  /// When it was last saved.
  public internal(set) var lastModifiedDate: Timestamp?
  /// The log position that last changed it; `.none` before it is first saved.
  public internal(set) var version: LogPosition

  /// A new reminder, not yet saved.
  public init(calendarID: ObjectID?, title: String, dueDate: LocalDateTime? = nil, timeZone: String? = nil) {
    self.id = .random()
    self.calendarID = calendarID
    self.externalID = ObjectID.random().description
    self.title = title
    self.notes = nil
    self.startDate = nil
    self.dueDate = dueDate
    self.isDueDateOnly = false
    self.timeZone = timeZone
    self.priority = 0
    self.isCompleted = false
    self.completionDate = nil
    self.recurrenceRules = []
    self.alarms = []
    self.sequence = 0
    self.additionalProperties = []
    self.resourceName = nil
    self.clientProperties = [:]
    self.creationDate = nil
    self.lastModifiedDate = nil
    self.version = .none
  }
}
