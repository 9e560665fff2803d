package import Kalends

extension Reminder {
  /// The reminder as documented in docs/cli.md's JSON shapes: the start and due dates as dates (date-only)
  /// or an RFC 3339 time with the offset of `timeZone` (floating without one).
  package var jsonFields: [(String, JSONValue)] {
    [
      ("id", .string(id.description)),
      ("externalId", .string(externalID)),
      ("calendarId", .text(calendarID?.description)),
      ("title", .string(title)),
      ("notes", .text(notes)),
      ("startDate", .text(startDate.map { DateArgument.text($0, isDate: isDueDateOnly, zone: timeZone) })),
      ("dueDate", .text(dueText)),
      ("timeZone", .text(timeZone)),
      ("priority", .number(priority)),
      ("completed", .bool(isCompleted)),
      ("completionDate", .text(completionDate?.description)),
      ("recurrenceRules", .array(recurrenceRules.map { .string($0.description) })),
      ("alarms", AlarmArgument.json(alarms)),
      ("version", .number(version.rawValue)),
      ("created", .text(creationDate?.description)),
      ("lastModified", .text(lastModifiedDate?.description)),
    ]
  }

  /// The due date as text, or `nil`.
  package var dueText: String? {
    dueDate.map { DateArgument.text($0, isDate: isDueDateOnly, zone: timeZone) }
  }

  /// Table text that reads better than the JSON value's.
  package var tableCells: [String: String] {
    ["alarms": AlarmArgument.text(alarms)]
  }
}
