extension EventStore {
  /// The incomplete reminders due in `[from, to)` (UTC seconds; `nil` bounds are open), in the
  /// calendars `calendarIDs` (all reminder calendars when empty), sorted by due date then title, as
  /// EventKit's `predicateForIncompleteReminders(withDueDateStarting:ending:calendars:)`. With both
  /// bounds `nil`, reminders without a due date are included too. Floating due times and due dates
  /// (a date-only reminder's, also when it names a zone) are placed in `viewerZone`.
  public func incompleteReminders(
    dueFrom from: Int64? = nil, to: Int64? = nil, inCalendars calendarIDs: [ObjectID] = [],
    viewerZone: ZoneRules = .utc
  ) throws(StoreError) -> [Reminder] {
    func instant(_ reminder: Reminder) -> Int64? {
      guard let due = reminder.dueDate else { return nil }
      return (reminder.dueZone ?? viewerZone).resolve(due)
    }
    return try reminders(inCalendars: calendarIDs).filter { reminder in
      guard !reminder.isCompleted else { return false }
      guard let due = instant(reminder) else { return from == nil && to == nil }
      return due >= (from ?? .min) && due < (to ?? .max)
    }
    .sorted { (instant($0) ?? .max, $0.title, $0.id) < (instant($1) ?? .max, $1.title, $1.id) }
  }

  /// The reminders completed in `[from, to)` (UTC seconds; `nil` bounds are open), most recent
  /// first, as EventKit's `predicateForCompletedReminders(withCompletionDateStarting:ending:calendars:)`.
  public func completedReminders(
    from: Int64? = nil, to: Int64? = nil, inCalendars calendarIDs: [ObjectID] = []
  ) throws(StoreError) -> [Reminder] {
    try reminders(inCalendars: calendarIDs).filter { reminder in
      guard let completed = reminder.completionDate else { return false }
      let seconds = completed.rawValue.floorDividedWithRemainder(by: 1_000_000).quotient
      return seconds >= (from ?? .min) && seconds < (to ?? .max)
    }
    .sorted { ($0.completionDate!, $0.id) > ($1.completionDate!, $1.id) }
  }
}
