internal import LMDB

extension EventStore {
  /// Completes the occurrence of the reminder `id` that is due, as Reminders does with a repeating
  /// reminder, in one transaction, from the stored reminder: a completed copy of that occurrence
  /// is saved (a new reminder of the same list, title, notes and priority, its start and due dates
  /// the occurrence's, not repeating), and the series moves on — its due date to the next
  /// occurrence, its start date by the same amount, a `COUNT` lowered by one for the occurrence it
  /// no longer holds. When no occurrence follows (or the reminder does not repeat), the reminder
  /// itself is completed.
  ///
  /// With `fetched`, the stored reminder must still be at that version
  /// (``CalendarError/changedSinceFetched(_:fetched:current:)``).
  ///
  /// Returns the completed reminder and, when the series goes on, the series as saved.
  @discardableResult
  public func completeOccurrence(
    of id: ObjectID, fetched: LogPosition? = nil
  ) throws(StoreError) -> (completed: Reminder, next: Reminder?) {
    let actor = self.actor
    return try write(.change(.reminders, "complete a reminder")) { txn, appender, objects in
      guard let stored = try objects.state(.reminder, id, in: txn) else {
        throw StoreError.calendar(.itemNotFound(id))
      }
      try Self.checkVersion(id, fetched: fetched ?? stored.version, stored: stored, overwrite: false)
      let current = try ModelCodec.decodeReminder(
        id: id, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state)
      let calendar = try liveCalendar(current.calendarID, objects: objects, in: txn)
      guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(calendar.id)) }
      guard var series = Self.movedOn(current) else {
        var completed = current
        completed.isCompleted = true
        return (try Self.appendSaved(completed, change: .modified, actor, &txn, &appender), nil)
      }
      var copy = Reminder(
        calendarID: current.calendarID, title: current.title, dueDate: current.dueDate, timeZone: current.timeZone)
      copy.notes = current.notes
      copy.priority = current.priority
      copy.startDate = current.startDate
      copy.isDueDateOnly = current.isDueDateOnly
      copy.isCompleted = true
      copy.creationDate = appender.timestamp
      try Self.check(copy)
      try Self.check(series)
      let completed = try Self.appendSaved(copy, change: .created, actor, &txn, &appender)
      series = try Self.appendSaved(series, change: .modified, actor, &txn, &appender)
      return (completed, series)
    }
  }

  /// `reminder` moved on to its next occurrence after the one due, or `nil` when it does not
  /// repeat or none follows.
  static func movedOn(_ reminder: Reminder) -> Reminder? {
    guard let due = reminder.dueDate, !reminder.recurrenceRules.isEmpty else { return nil }
    let zone = reminder.dueZone
    guard
      let set = try? RecurrenceSet(
        start: due, isAllDay: reminder.isDueDateOnly, zone: zone, rules: reminder.recurrenceRules)
    else { return nil }
    let placed = (zone ?? .utc).resolve(due)
    guard
      let following = set.occurrences(from: placed, to: 253_402_300_800).first(where: {
        $0.local.wallClockSeconds > due.wallClockSeconds
      })
    else { return nil }
    var moved = reminder
    let shift = following.local.wallClockSeconds - due.wallClockSeconds
    moved.dueDate = following.local
    moved.startDate = reminder.startDate.flatMap { LocalDateTime(wallClockSeconds: $0.wallClockSeconds + shift) }
    moved.recurrenceRules = reminder.recurrenceRules.map { rule in
      var rule = rule
      if let count = rule.count { rule.count = max(1, count - 1) }
      return rule
    }
    moved.isCompleted = false
    moved.completionDate = nil
    return moved
  }
}
