extension Reminder {
  /// One instance of a reminder as a time range sees it: its start and due date as written, the
  /// original due date when it repeats, and the instants they stand for.
  struct Instance {
    let start: LocalDateTime?
    let due: LocalDateTime?
    let original: LocalDateTime?
  }

  /// Whether it overlaps the time range `[from, to]` (UTC seconds; floating times and dates placed
  /// in `floating`, UTC unless given — CalDAV's `calendar-timezone`) as RFC 4791 §9.9 judges a
  /// `VTODO`, at any instance of its recurrence: by its start and `DURATION`, start and due date,
  /// start alone, due date alone (`from < due ≤ to`), or completion — and, with none of them,
  /// always. `CREATED` is not used: Kalends stamps it when it stores the reminder, so it says
  /// nothing of the task.
  public func overlaps(from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc) -> Bool {
    !instances(from: from, to: to, limit: 1, floatingIn: floating).isEmpty
  }

  /// The zone its start and due dates are kept in; `nil` for dates and floating times.
  package var dueZone: ZoneRules? { isDueDateOnly ? nil : timeZone.flatMap { try? ZoneRules.named($0) } }

  /// The instances that overlap `[from, to]` as ``overlaps(from:to:floatingIn:)`` judges, by due
  /// date; with `limit`, at most that many.
  func instances(from: Int64, to: Int64, limit: Int? = nil, floatingIn floating: ZoneRules = .utc) -> [Instance] {
    let zone = dueZone
    let rules = zone ?? floating
    let duration = Self.duration(in: additionalProperties)
    let completed = completionDate.map { $0.rawValue.floorDividedWithRemainder(by: 1_000_000).quotient }
    func holds(_ instance: Instance) -> Bool {
      let start = instance.start.map(rules.resolve)
      let due = instance.due.map(rules.resolve)
      switch (start, due) {
      case (let start?, nil) where duration != nil:
        let local = instance.start!.wallClockSeconds + duration!.days * 86_400
        let end = (LocalDateTime(wallClockSeconds: local).map(rules.resolve) ?? start) + duration!.seconds
        return from <= end && (to > start || to >= end)
      case (let start?, let due?): return (from < due || from <= start) && (to > start || to >= due)
      case (let start?, nil): return from <= start && to > start
      case (nil, let due?): return from < due && to >= due
      case (nil, nil):
        guard let completed else { return true }
        return from <= completed && to >= completed
      }
    }
    guard let due = dueDate, !recurrenceRules.isEmpty else {
      let instance = Instance(start: startDate, due: dueDate, original: nil)
      return holds(instance) ? [instance] : []
    }
    guard let set = try? RecurrenceSet(start: due, isAllDay: isDueDateOnly, zone: zone, rules: recurrenceRules) else {
      return []
    }
    // An instance overlaps only with its due date in [from, to + how long before it starts]; open
    // bounds are held to the years wall-clock times span (1…9999).
    let lead = startDate.map { max(0, due.wallClockSeconds - $0.wallClockSeconds) } ?? 0
    let (earliest, latest): (Int64, Int64) = (-62_135_596_800, 253_402_300_800)
    let window = (max(from, earliest), min(to, latest) + lead + 1)
    var found: [Instance] = []
    for occurrence in set.occurrences(from: window.0, to: window.1) {
      let start = startDate.flatMap {
        LocalDateTime(wallClockSeconds: $0.wallClockSeconds + occurrence.local.wallClockSeconds - due.wallClockSeconds)
      }
      let instance = Instance(start: start, due: occurrence.local, original: occurrence.local)
      guard holds(instance) else { continue }
      found.append(instance)
      if let limit, found.count >= limit { break }
    }
    return found
  }

  /// The `DURATION` among a reminder's kept iCalendar properties (a `VTODO` with a start and a
  /// duration instead of a due date): its days and exact seconds.
  static func duration(in properties: [String]) -> (days: Int64, seconds: Int64)? {
    for property in properties {
      let name = property.prefix { $0 != ":" && $0 != ";" }.uppercased()
      guard name == "DURATION", let colon = property.firstIndex(of: ":") else { continue }
      return ICalendarText.duration(String(property[property.index(after: colon)...]))
    }
    return nil
  }
}
