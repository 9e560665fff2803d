extension EventStore {
  /// Brings a fetched event up to date (EventKit's `refresh()`), keeping the fields the caller
  /// changed and has not saved yet; an occurrence is refreshed by its identity (series and original
  /// start), so it follows its series and its own detached changes.
  ///
  /// Returns `false` — refetch — when the event (or this occurrence) no longer exists, its
  /// calendar was removed, or this session can no longer read events (access changed, session
  /// ended); `event` is then left as it was. A copy never saved returns `false` too.
  ///
  /// Which fields the caller changed is known exactly: the state it was fetched at is the record
  /// at its ``Event/version`` in the log.
  public func refresh(_ event: inout Event) throws(StoreError) -> Bool {
    guard event.version != .none else { return false }
    let latest: Event?
    do {
      if let date = event.occurrenceDate {
        latest = try self.event(withID: event.id, occurrence: date)
      } else {
        latest = try self.event(withID: event.id)
      }
    } catch .access {
      return false
    }
    guard let latest else { return false }
    guard latest.version != event.version else { return true }
    if var base = try fetchedState(.eventSaved, event.id, at: event.version, decode: Self.decodeSavedEvent) {
      if let date = event.occurrenceDate {
        guard let occurrence = try SeriesEditor.occurrence(of: base, at: date, checked: false) else { return true }
        base = occurrence
      }
      event = LocalEdits.event.apply(local: event, base: base, to: latest)
    } else {
      event = latest
    }
    return true
  }

  /// Brings a fetched reminder up to date, keeping the fields the caller changed and has not
  /// saved; `false` (refetch) when it, or its calendar, was removed or this session can no longer
  /// read reminders. See ``refresh(_:)-(inout Event)``.
  public func refresh(_ reminder: inout Reminder) throws(StoreError) -> Bool {
    guard reminder.version != .none else { return false }
    let latest: Reminder?
    do {
      latest = try self.reminder(withID: reminder.id)
    } catch .access {
      return false
    }
    guard let latest else { return false }
    guard latest.version != reminder.version else { return true }
    let base = try fetchedState(.reminderSaved, reminder.id, at: reminder.version) {
      (id, fields, header) throws(StoreError) -> Reminder in
      try ModelCodec.decodeReminder(
        id: id, calendarID: try fields.requiredObjectID(2), version: header.position, modified: header.timestamp,
        try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
    }
    reminder = base.map { LocalEdits.reminder.apply(local: reminder, base: $0, to: latest) } ?? latest
    return true
  }

  /// Brings a fetched calendar up to date, keeping the fields the caller changed and has not
  /// saved; `false` (refetch) when it was removed or this session can no longer see it.
  public func refresh(_ calendar: inout EventCalendar) throws(StoreError) -> Bool {
    guard calendar.version != .none else { return false }
    let latest: EventCalendar?
    do {
      latest = try self.calendar(withID: calendar.id)
    } catch .access {
      return false
    }
    guard let latest else { return false }
    guard latest.version != calendar.version else { return true }
    let base = try fetchedState(.calendarSaved, calendar.id, at: calendar.version) {
      (id, fields, header) throws(StoreError) -> EventCalendar in
      try ModelCodec.decodeCalendar(
        id: id, version: header.position, try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
    }
    calendar = base.map { LocalEdits.calendar.apply(local: calendar, base: $0, to: latest) } ?? latest
    return true
  }

  /// The state an object was fetched at: the record at `version`, when it is a `kind` record for `id`.
  private func fetchedState<T>(
    _ kind: RecordKind, _ id: ObjectID, at version: LogPosition,
    decode: (ObjectID, PayloadReader, LogRecordHeader) throws(StoreError) -> T
  ) throws(StoreError) -> T? {
    let record: LogRecord
    do {
      record = try store.record(at: version)
    } catch .recordNotFound {
      return nil
    }
    guard record.kind == kind else { return nil }
    let fields = try PayloadReader(record.payload)
    guard try fields.objectID(1) == id else { return nil }
    return try decode(id, fields, record.header)
  }

  private static func decodeSavedEvent(
    _ id: ObjectID, _ fields: PayloadReader, _ header: LogRecordHeader
  ) throws(StoreError) -> Event {
    try ModelCodec.decodeEvent(
      id: id, calendarID: try fields.requiredObjectID(2), version: header.position, modified: header.timestamp,
      try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
  }
}
