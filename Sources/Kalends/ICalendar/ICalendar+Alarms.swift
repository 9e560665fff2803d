extension Event {
  /// Whether one of its alarms, at any of its instances, fires in `[from, to)` (UTC seconds;
  /// floating times and dates placed in `floating`, the request's or the calendar's zone): CalDAV's
  /// time range on a `VALARM` (RFC 4791 §9.9). An alarm fires at its offset from the instance's
  /// start; a detached occurrence's own alarms count for it.
  public func firesAlarm(from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc) -> Bool {
    let offsets = ([self] + detachedOccurrences.values).flatMap(\.alarms).map(\.relativeOffset)
    guard let earliest = offsets.min(), let latest = offsets.max(), from < to else { return false }
    let instances = ICalendar.instances(of: self, from: from - latest, to: to - earliest + 1, floatingIn: floating)
    return instances.contains { instance, _ in
      // An instance in a zone is written in UTC; a floating one is placed in `floating`.
      guard let local = instance.start else { return false }
      let start = instance.timeZoneRules == nil ? floating.resolve(local) : local.wallClockSeconds
      return instance.alarms.contains { (from..<to).contains(start + $0.relativeOffset) }
    }
  }
}

extension Reminder {
  /// Whether one of its alarms, at any instance of its recurrence, fires in `[from, to)`: at its
  /// offset from the due date (floating and date-only due dates placed in `floating`), as
  /// ``Event/firesAlarm(from:to:floatingIn:)``.
  public func firesAlarm(from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc) -> Bool {
    guard dueDate != nil, let earliest = alarms.map(\.relativeOffset).min(),
      let latest = alarms.map(\.relativeOffset).max(), from < to
    else { return false }
    let instances = ICalendar.instances(of: self, from: from - latest - 1, to: to - earliest + 1, floatingIn: floating)
    return instances.contains { instance, _ in
      guard let local = instance.dueDate else { return false }
      let due = instance.dueZone == nil ? floating.resolve(local) : local.wallClockSeconds
      return instance.alarms.contains { (from..<to).contains(due + $0.relativeOffset) }
    }
  }
}
