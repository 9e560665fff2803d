internal import LMDB

extension EventStore {
  /// The reminder `id` as the object projection stores it.
  static func decodeStoredReminder(_ id: ObjectID, _ stored: StoredObject) throws(StoreError) -> Reminder {
    try ModelCodec.decodeReminder(
      id: id, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state)
  }

  /// The reminder `id`, or `nil` when there is none or it was removed.
  public func reminder(withID id: ObjectID) throws(StoreError) -> Reminder? {
    try readItems(.reminders, "read reminders", hidden: nil) { txn, objects, uses in
      guard let stored = try objects.state(.reminder, id, in: txn), stored.isLive else { return nil }
      uses.touch(stored.calendarID)
      return try ModelCodec.decodeReminder(
        id: id, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state)
    }
  }

  /// Every reminder in the calendars `calendarIDs` (all reminder calendars when empty), incomplete
  /// first, then by due date and title.
  public func reminders(inCalendars calendarIDs: [ObjectID] = []) throws(StoreError) -> [Reminder] {
    try readItems(.reminders, "read reminders", hidden: []) { txn, objects, uses in
      let calendars =
        calendarIDs.isEmpty ? try visibleCalendars(for: .reminders, objects, in: txn).map(\.id) : calendarIDs
      uses.touch(calendars)
      var reminders: [Reminder] = []
      for calendarID in calendars {
        for id in try objects.items(.reminder, inCalendar: calendarID, in: txn) {
          guard let stored = try objects.state(.reminder, id, in: txn), stored.isLive else { continue }
          reminders.append(
            try ModelCodec.decodeReminder(
              id: id, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state))
        }
      }
      return reminders.sorted { a, b in
        if a.isCompleted != b.isCompleted { return !a.isCompleted }
        let (da, db) = (a.dueDate ?? .max, b.dueDate ?? .max)
        return da != db ? da < db : (a.title, a.id) < (b.title, b.id)
      }
    }
  }

  /// Creates or changes a reminder and returns it as saved. Completing it stamps the completion
  /// date (unless one is set); un-completing clears it.
  @discardableResult
  public func save(_ reminder: Reminder, overwrite: Bool = false) throws(StoreError) -> Reminder {
    try Self.check(reminder)
    let actor = self.actor
    return try write(.change(.reminders, "save a reminder")) { txn, appender, objects in
      let calendar = try liveCalendar(reminder.calendarID, objects: objects, in: txn)
      guard calendar.allowedEntityTypes.contains(.reminders) else {
        throw StoreError.calendar(.calendarDoesNotAllowReminders(calendar.id))
      }
      guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(calendar.id)) }
      var saved = reminder
      var change = ItemChange.created
      var movedFrom: ObjectID?
      if let stored = try objects.state(.reminder, reminder.id, in: txn) {
        try Self.checkVersion(reminder.id, fetched: reminder.version, stored: stored, overwrite: overwrite)
        if stored.calendarID != calendar.id {
          let previous = try liveCalendar(stored.calendarID, objects: objects, in: txn)
          guard previous.allowsContentModifications else {
            throw StoreError.calendar(.calendarReadOnly(previous.id))
          }
          movedFrom = previous.id
        }
        saved.creationDate = try stored.state.signed(18).map(Timestamp.init(rawValue:))
        change = .modified
      } else {
        saved.creationDate = appender.timestamp
      }
      return try Self.appendSaved(saved, change: change, movedFrom: movedFrom, actor, &txn, &appender)
    }
  }

  /// The checks a reminder must pass before it is saved.
  static func check(_ reminder: Reminder) throws(StoreError) {
    guard reminder.calendarID != nil else { throw .calendar(.noCalendar) }
    guard (0...9).contains(reminder.priority) else { throw .calendar(.priorityIsInvalid(reminder.priority)) }
    if !reminder.recurrenceRules.isEmpty && reminder.dueDate == nil {
      throw .calendar(.recurringReminderRequiresDueDate)
    }
    if let start = reminder.startDate, let due = reminder.dueDate, start > due {
      throw .calendar(.reminderStartsAfterDue)
    }
    try checkText(reminder.title, field: "the title")
    try checkText(reminder.notes, field: "the notes")
    try checkText(reminder.externalID, field: "the external identifier")
    for property in reminder.additionalProperties { try checkText(property, field: "an iCalendar property") }
    try checkClientProperties(reminder.clientProperties)
    try checkAlarms(reminder.alarms)
    guard reminder.sequence >= 0 else { throw .calendar(.invalidText(field: "the sequence", reason: "is negative")) }
    if let zone = reminder.timeZone {
      guard (try? ZoneRules.named(zone)) != nil else { throw .calendar(.invalidTimeZone(zone)) }
    }
  }

  /// Appends a `reminderSaved` record with the full state of `reminder` (completion stamped or
  /// cleared), naming `movedFrom` when the save moves it from that list, and returns it as saved.
  static func appendSaved(
    _ reminder: Reminder, change: ItemChange, movedFrom: ObjectID? = nil, _ actor: Principal,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> Reminder {
    var saved = reminder
    if saved.isCompleted && saved.completionDate == nil { saved.completionDate = appender.timestamp }
    if !saved.isCompleted { saved.completionDate = nil }
    var payload = Payload()
    payload.append(tag: 1, id: saved.id)
    payload.append(tag: 2, id: saved.calendarID!)
    payload.append(tag: 3, unsigned: change.rawValue)
    payload.append(tag: 5, message: ModelCodec.encode(saved))
    if let movedFrom { payload.append(tag: 7, id: movedFrom) }
    let header = try appender.append(RecordDraft(kind: .reminderSaved, principal: actor, payload: payload), in: &txn)
    saved.version = header.position
    saved.lastModifiedDate = header.timestamp
    return saved
  }

  /// Removes a reminder.
  public func remove(_ reminder: Reminder, overwrite: Bool = false) throws(StoreError) {
    let actor = self.actor
    try write(.change(.reminders, "remove a reminder")) { txn, appender, objects in
      guard let stored = try objects.state(.reminder, reminder.id, in: txn) else {
        throw StoreError.calendar(.itemNotFound(reminder.id))
      }
      try Self.checkVersion(reminder.id, fetched: reminder.version, stored: stored, overwrite: overwrite)
      let calendar = try liveCalendar(stored.calendarID, objects: objects, in: txn)
      guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(calendar.id)) }
      var payload = Payload()
      payload.append(tag: 1, id: reminder.id)
      payload.append(tag: 2, id: stored.calendarID)
      try appender.append(RecordDraft(kind: .reminderRemoved, principal: actor, payload: payload), in: &txn)
    }
  }
}
