extension EventStore {
  /// How far before an occurrence's start (or a reminder's due time) an alarm is looked for: an
  /// alarm set earlier than four weeks before does not fire.
  public static let alarmLead: Int64 = 28 * 86_400
  /// How far after the start an alarm is looked for: an alarm set later than a day after does not
  /// fire.
  public static let alarmLag: Int64 = 86_400

  /// The alarms that fire in `(after, through]` (UTC seconds), by time: each alarm of each event
  /// occurrence — of series too, changed occurrences as changed, cancelled ones (``Event/status``
  /// `.canceled`) never — and of each incomplete reminder with a due date. Floating times, all-day
  /// events and date-only reminders are placed in `viewerZone`: an alarm of an all-day event is
  /// relative to the start of its day there, as in EventKit. Alarms further than ``alarmLead``
  /// before or ``alarmLag`` after their start are not looked for.
  ///
  /// Reads events and reminders as ``events(matching:)`` and
  /// ``incompleteReminders(dueFrom:to:inCalendars:viewerZone:)`` do: an app gets the alarms of
  /// the services it holds full access to, and without access to either is refused as those
  /// reads are (the refusal recorded).
  public func alarms(
    firingAfter after: Int64, through end: Int64, viewerZone: ZoneRules = .utc
  ) throws(StoreError) -> [DueAlarm] {
    guard after < end else { return [] }
    let (from, to) = (after &- Self.alarmLag, end &+ Self.alarmLead &+ 1)
    var due: [DueAlarm] = []
    func add(_ alarms: [Alarm], start: Int64, make: (Alarm, Int64) -> DueAlarm) {
      for alarm in alarms {
        let fire = start &+ alarm.relativeOffset
        if fire > after && fire <= end { due.append(make(alarm, fire)) }
      }
    }
    // An app reads what it holds full access to; holding neither, its read of events is refused
    // (and recorded) as any.
    let readsEvents = try authorizationStatus(for: .calendars) == .fullAccess
    let readsReminders = try authorizationStatus(for: .reminders) == .fullAccess
    if readsEvents || !readsReminders {
      let predicate = EventPredicate(start: from, end: to, viewerZone: viewerZone)
      for event in try events(matching: predicate) where !event.alarms.isEmpty && event.status != .canceled {
        guard let start = event.start, let finish = event.end, let calendar = event.calendarID else { continue }
        let rules = event.isAllDay ? viewerZone : event.timeZoneRules ?? viewerZone
        let (startTime, endTime) = (rules.resolve(start), rules.resolve(finish))
        guard startTime >= from && startTime < to else { continue }
        add(event.alarms, start: startTime) { alarm, fire in
          DueAlarm(
            item: .event(event.id, occurrence: event.occurrenceDate), fireTime: fire, offset: alarm.relativeOffset,
            title: event.title, start: startTime, end: endTime, isAllDay: event.isAllDay, location: event.location,
            calendarID: calendar)
        }
      }
    }
    if readsReminders {
      for reminder in try incompleteReminders(dueFrom: from, to: to, viewerZone: viewerZone)
      where !reminder.alarms.isEmpty {
        guard let dueDate = reminder.dueDate, let calendar = reminder.calendarID else { continue }
        let dueTime = (reminder.dueZone ?? viewerZone).resolve(dueDate)
        add(reminder.alarms, start: dueTime) { alarm, fire in
          DueAlarm(
            item: .reminder(reminder.id), fireTime: fire, offset: alarm.relativeOffset, title: reminder.title,
            start: dueTime, end: nil, isAllDay: reminder.isDueDateOnly, location: nil, calendarID: calendar)
        }
      }
    }
    return due.sorted { ($0.fireTime, $0.start, $0.title) < ($1.fireTime, $1.start, $1.title) }
  }
}
