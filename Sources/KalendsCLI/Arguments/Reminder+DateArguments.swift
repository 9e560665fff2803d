import ArgumentParser
import Kalends
import KalendsFormats

extension Kalends.Reminder {
  /// Sets the due date as typed to `--due`: a date makes it date-only; a wall-clock time is in
  /// `zone` (floating without one); an instant is converted to `zone`, else kept in UTC.
  mutating func setDue(_ argument: DateArgument, in zone: ZoneRules?) throws(RequestError) {
    let placed = try argument.placed(in: zone)
    (dueDate, timeZone) = (placed.local, placed.zone?.identifier)
    isDueDateOnly = argument.value.isDate
  }

  /// Sets the start date as typed to `--start`, placed as ``setDue(_:in:)`` places the due date; a
  /// reminder with a due date needs it written alike (both dates, or both times in one zone),
  /// else the command's usage is wrong (exit 64).
  mutating func setStart(_ argument: DateArgument, in zone: ZoneRules?) throws {
    let placed = try argument.placed(in: zone)
    if dueDate != nil, argument.value.isDate != isDueDateOnly || placed.zone?.identifier != timeZone {
      throw ValidationError("--start is written as --due is: both dates, or both times in the same zone")
    }
    (startDate, timeZone) = (placed.local, placed.zone?.identifier)
    isDueDateOnly = argument.value.isDate
  }
}
