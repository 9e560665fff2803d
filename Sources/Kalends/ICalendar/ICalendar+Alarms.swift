extension Event {
  /// Whether one of its alarms, at any of its instances, fires in `[from, to)` (UTC seconds;
  /// floating times and dates placed in UTC): CalDAV's time range on a `VALARM` (RFC 4791 §9.9).
  /// An alarm fires at its offset from the instance's start; a detached occurrence's own alarms
  /// count for it.
  public func firesAlarm(from: Int64, to: Int64) -> Bool {
    let offsets = ([self] + detachedOccurrences.values).flatMap(\.alarms).map(\.relativeOffset)
    guard let earliest = offsets.min(), let latest = offsets.max(), from < to else { return false }
    return ICalendar.instances(of: self, from: from - latest, to: to - earliest + 1).contains { instance, _ in
      guard let start = instance.start?.wallClockSeconds else { return false }
      return instance.alarms.contains { (from..<to).contains(start + $0.relativeOffset) }
    }
  }
}

extension Reminder {
  /// Whether one of its alarms, at any instance of its recurrence, fires in `[from, to)`: at its
  /// offset from the due date (floating and date-only due dates placed in UTC), as
  /// ``Event/firesAlarm(from:to:)``.
  public func firesAlarm(from: Int64, to: Int64) -> Bool {
    guard dueDate != nil, let earliest = alarms.map(\.relativeOffset).min(),
      let latest = alarms.map(\.relativeOffset).max(), from < to
    else { return false }
    return ICalendar.instances(of: self, from: from - latest - 1, to: to - earliest + 1).contains { instance, _ in
      guard let due = instance.dueDate?.wallClockSeconds else { return false }
      return instance.alarms.contains { (from..<to).contains(due + $0.relativeOffset) }
    }
  }
}
