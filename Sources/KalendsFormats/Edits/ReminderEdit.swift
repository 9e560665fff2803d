package import Kalends

/// The changes a request makes to a reminder, parsed before the store is opened. `nil` leaves a
/// field as it is.
package struct ReminderEdit {
  /// A change of a date: kept, cleared, or set as written.
  package enum DateChange {
    case keep, clear
    case set(DateArgument)
  }

  /// A change of the zone of the reminder's times: kept, made floating, or a named zone.
  package enum ZoneChange {
    case keep, floating
    case named(ZoneRules)
  }

  package var calendarID: ObjectID?
  package var title: String?
  package var due: DateChange
  package var start: DateChange
  package var zone: ZoneChange
  package var priority: Int?
  /// An empty text clears the notes.
  package var notes: String?
  package var rules: [RecurrenceRule]?
  package var alarms: [Alarm]?
  package var completed: Bool?

  package init(
    calendarID: ObjectID?, title: String?, due: DateChange, start: DateChange, zone: ZoneChange, priority: Int?,
    notes: String?, rules: [RecurrenceRule]?, alarms: [Alarm]?, completed: Bool?
  ) {
    self.calendarID = calendarID
    self.title = title
    self.due = due
    self.start = start
    self.zone = zone
    self.priority = priority
    self.notes = notes
    self.rules = rules
    self.alarms = alarms
    self.completed = completed
  }

  /// Whether the edit changes anything but `completed`.
  package var changesMoreThanCompletion: Bool {
    if case .keep = due, case .keep = start, case .keep = zone, calendarID == nil, title == nil, priority == nil,
      notes == nil, rules == nil, alarms == nil
    {
      return false
    }
    return true
  }

  /// Applies the changes to `reminder`. A date is placed in the zone given, else the reminder's
  /// (floating without one): a date makes the reminder date-only, a wall-clock time is in that
  /// zone, an instant is converted to it (kept in UTC when floating). The start date and the due
  /// date must be written alike — both dates, or both times in one zone — else
  /// ``RequestError/invalidInput(_:)``.
  package func apply(to reminder: inout Reminder) throws(RequestError) {
    if let calendarID { reminder.calendarID = calendarID }
    if let title { reminder.title = title }
    switch zone {
    case .keep: break
    case .floating: reminder.timeZone = nil
    case .named(let rules): reminder.timeZone = rules.identifier
    }
    let placing = try DateArgument.zone(reminder.timeZone, option: "timeZone")
    switch due {
    case .keep: break
    case .clear: reminder.dueDate = nil
    case .set(let argument): try reminder.setDue(argument, in: placing)
    }
    switch start {
    case .keep: break
    case .clear: reminder.startDate = nil
    case .set(let argument):
      guard try reminder.placeStart(argument, in: placing) else {
        throw .invalidInput("startDate is written as dueDate is: both dates, or both times in the same zone")
      }
    }
    if let priority { reminder.priority = priority }
    if let notes { reminder.notes = notes.isEmpty ? nil : notes }
    if let rules { reminder.recurrenceRules = rules }
    if let alarms { reminder.alarms = alarms }
    if let completed { reminder.isCompleted = completed }
  }
}
