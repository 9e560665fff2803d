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
  /// read reminders. See ``refresh(_:)-(Event)``.
  public func refresh(_ reminder: inout Reminder) throws(StoreError) -> Bool {
    let id = reminder.id
    let updated = try refreshed(
      reminder, id, at: reminder.version, .reminderSaved, edits: .reminder, versionOf: \.version,
      fetch: { () throws(StoreError) -> Reminder? in try self.reminder(withID: id) },
      decode: { (id, fields, header) throws(StoreError) -> Reminder in
        try ModelCodec.decodeReminder(
          id: id, calendarID: try fields.requiredObjectID(2), version: header.position, modified: header.timestamp,
          try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
      })
    guard let updated else { return false }
    reminder = updated
    return true
  }

  /// Brings a fetched calendar up to date, keeping the fields the caller changed and has not
  /// saved; `false` (refetch) when it was removed or this session can no longer see it.
  public func refresh(_ calendar: inout EventCalendar) throws(StoreError) -> Bool {
    let id = calendar.id
    let updated = try refreshed(
      calendar, id, at: calendar.version, .calendarSaved, edits: .calendar, versionOf: \.version,
      fetch: { () throws(StoreError) -> EventCalendar? in try self.calendar(withID: id) },
      decode: { (id, fields, header) throws(StoreError) -> EventCalendar in
        try ModelCodec.decodeCalendar(
          id: id, version: header.position, try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
      })
    guard let updated else { return false }
    calendar = updated
    return true
  }

  /// `local` (fetched at `version`) brought up to the state `fetch` returns, with the fields the
  /// caller changed since kept; `nil` — refetch — when it was never saved, is gone, or this session
  /// can no longer read it.
  func refreshed<T>(
    _ local: T, _ id: ObjectID, at version: LogPosition, _ kind: RecordKind, edits: LocalEdits<T>,
    versionOf: KeyPath<T, LogPosition>,
    fetch: () throws(StoreError) -> T?, decode: (ObjectID, PayloadReader, LogRecordHeader) throws(StoreError) -> T
  ) throws(StoreError) -> T? {
    guard version != .none else { return nil }
    let latest: T?
    do {
      latest = try fetch()
    } catch .access {
      return nil
    }
    guard let latest else { return nil }
    guard latest[keyPath: versionOf] != version else { return local }
    let base = try fetchedState(kind, id, at: version, decode: decode)
    return base.map { edits.apply(local: local, base: $0, to: latest) } ?? latest
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
