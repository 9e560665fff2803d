package import Kalends

extension Reminder {
  /// Sets the due date as written: a date makes it date-only; a wall-clock time is in `zone`
  /// (floating without one); an instant is converted to `zone`, else kept in UTC.
  package mutating func setDue(_ argument: DateArgument, in zone: ZoneRules?) throws(RequestError) {
    let placed = try argument.placed(in: zone)
    (dueDate, timeZone) = (placed.local, placed.zone?.identifier)
    isDueDateOnly = argument.value.isDate
  }

  /// Sets the start date as written, placed as ``setDue(_:in:)`` places the due date. A reminder
  /// with a due date needs its start written alike (both dates, or both times in one zone): `false`,
  /// and nothing changed, when it is not — each front end says so in its own words.
  package mutating func placeStart(_ argument: DateArgument, in zone: ZoneRules?) throws(RequestError) -> Bool {
    let placed = try argument.placed(in: zone)
    if dueDate != nil, argument.value.isDate != isDueDateOnly || placed.zone?.identifier != timeZone {
      return false
    }
    (startDate, timeZone) = (placed.local, placed.zone?.identifier)
    isDueDateOnly = argument.value.isDate
    return true
  }
}
