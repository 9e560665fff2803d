extension ICalendarReader {
  /// Properties of a `VTODO` read into ``Reminder`` fields; the rest are kept verbatim.
  private static let todoProperties: Set<String> = [
    "UID", "DTSTAMP", "DUE", "SUMMARY", "DESCRIPTION", "COMPLETED", "PRIORITY", "CREATED", "LAST-MODIFIED", "SEQUENCE",
  ]

  /// One `VTODO` as a reminder. Its `DTSTART` is its start date when it is written as its `DUE` is
  /// (the same zone, a date or a time alike) and not after it, and kept verbatim otherwise. An `RRULE`
  /// without `DUE` (recurring from `DTSTART`) is kept verbatim, since a recurring reminder needs a
  /// due date.
  mutating func reminder(_ component: ICalendarComponent) throws(ICalendarError) -> Reminder {
    var reminder = Reminder(calendarID: nil, title: "")
    reminder.externalID = Self.uid(of: component)
    var due: (local: LocalDateTime, zone: ZoneRules?)?
    if let line = component.property("DUE") {
      let time = try ICalendarTime.parse(line)
      let placed = try place(time, line: line.line, inEvent: false)
      due = placed
      reminder.dueDate = placed.local
      reminder.timeZone = placed.zone?.identifier
      reminder.isDueDateOnly = time.isDate
    }
    var startLine: Int?
    if let line = component.property("DTSTART") {
      let time = try ICalendarTime.parse(line)
      let placed = try place(time, line: line.line, inEvent: false)
      let sameForm =
        due.map { $0.zone?.identifier == placed.zone?.identifier && reminder.isDueDateOnly == time.isDate } ?? true
      if sameForm && (due.map { placed.local <= $0.local } ?? true) {
        reminder.startDate = placed.local
        startLine = line.line
        if due == nil {
          reminder.timeZone = placed.zone?.identifier
          reminder.isDueDateOnly = time.isDate
        }
      }
    }
    for line in component.properties {
      switch line.name {
      case "SUMMARY": reminder.title = ICalendarText.unescaped(line.value)
      case "DESCRIPTION": reminder.notes = ICalendarText.unescaped(line.value)
      case "COMPLETED":
        reminder.isCompleted = true
        reminder.completionDate = Timestamp(
          rawValue: try instant(ICalendarTime.parse(line), line: line.line) * 1_000_000)
      case "PRIORITY": reminder.priority = try Self.integer(line, in: 0...9)
      case "SEQUENCE": reminder.sequence = try Self.integer(line, in: 0...Int(Int32.max))
      case "CREATED":
        reminder.creationDate = Timestamp(rawValue: try instant(ICalendarTime.parse(line), line: line.line) * 1_000_000)
      case "LAST-MODIFIED": _ = try ICalendarTime.parse(line)
      case "STATUS" where line.value.uppercased() == "COMPLETED": reminder.isCompleted = true
      case "STATUS" where line.value.uppercased() == "NEEDS-ACTION": break
      case "RRULE" where due != nil:
        var event = Event(
          calendarID: nil, title: "", start: due?.local, end: due?.local, timeZone: due?.zone?.identifier)
        event.isAllDay = reminder.isDueDateOnly
        reminder.recurrenceRules.append(try Self.rule(line, for: event))
      case "DTSTART" where line.line == startLine: break
      case let name where Self.todoProperties.contains(name): break
      default: reminder.additionalProperties.append(line.text)
      }
    }
    for alarm in component.components where alarm.name == "VALARM" {
      reminder.alarms.append(
        try self.alarm(alarm, start: due ?? (LocalDateTime(unchecked: 0), nil), duration: 0, of: reminder.title))
    }
    return reminder
  }
}
