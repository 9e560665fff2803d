internal import LMDB

extension EventStore {
  /// Every live calendar holding any of `types`, sorted by title.
  public func calendars(for types: EntityTypes = [.events, .reminders]) throws(StoreError) -> [EventCalendar] {
    try read { txn, objects in
      var calendars: [EventCalendar] = []
      try txn.withCursor(on: objects.objects) { cursor in
        guard try cursor.seek(atLeast: [ObjectKind.calendar.rawValue]) else { return }
        try cursor.scanForward { key, value in
          guard key.byteCount == 17, key.unsafeLoad(fromByteOffset: 0, as: UInt8.self) == ObjectKind.calendar.rawValue
          else { return .stop }
          let stored = try StoredObject(decoding: value)
          guard stored.isLive else { return .continue }
          let calendar = try ModelCodec.decodeCalendar(id: stored.calendarID, version: stored.version, stored.state)
          if !calendar.allowedEntityTypes.isDisjoint(with: types) { calendars.append(calendar) }
          return .continue
        }
      }
      return calendars.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
    }
  }

  /// The live calendar `id`, or `nil`.
  public func calendar(withID id: ObjectID) throws(StoreError) -> EventCalendar? {
    try read { txn, objects in
      guard let stored = try objects.state(.calendar, id, in: txn), stored.isLive else { return nil }
      return try ModelCodec.decodeCalendar(id: id, version: stored.version, stored.state)
    }
  }

  /// Creates or changes a calendar and returns it as saved (with its new version).
  @discardableResult
  public func save(_ calendar: EventCalendar, overwrite: Bool = false) throws(StoreError) -> EventCalendar {
    try Self.checkText(calendar.title, field: "the title")
    guard !calendar.allowedEntityTypes.isEmpty else {
      throw .calendar(.invalidText(field: "allowed entity types", reason: "is empty"))
    }
    let actor = self.actor
    return try write { txn, appender, objects in
      var change = ItemChange.created
      if let stored = try objects.state(.calendar, calendar.id, in: txn) {
        try Self.checkVersion(calendar.id, fetched: calendar.version, stored: stored, overwrite: overwrite)
        let current = try ModelCodec.decodeCalendar(id: calendar.id, version: stored.version, stored.state)
        if current.allowedEntityTypes != calendar.allowedEntityTypes {
          throw StoreError.calendar(.entityTypesCannotChange(calendar.id))
        }
        change = .modified
      }
      return try Self.appendSaved(calendar, change: change, actor, &txn, &appender)
    }
  }

  /// Appends a `calendarSaved` record with the full state of `calendar` and returns it as saved.
  static func appendSaved(
    _ calendar: EventCalendar, change: ItemChange, _ actor: Principal, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> EventCalendar {
    var payload = Payload()
    payload.append(tag: 1, id: calendar.id)
    payload.append(tag: 3, unsigned: change.rawValue)
    payload.append(tag: 5, message: ModelCodec.encode(calendar))
    let header = try appender.append(RecordDraft(kind: .calendarSaved, principal: actor, payload: payload), in: &txn)
    var saved = calendar
    saved.version = header.position
    return saved
  }

  /// Removes a calendar and every event and reminder in it (one record).
  public func remove(_ calendar: EventCalendar, overwrite: Bool = false) throws(StoreError) {
    let actor = self.actor
    try write { txn, appender, objects in
      guard let stored = try objects.state(.calendar, calendar.id, in: txn) else {
        throw StoreError.calendar(.calendarNotFound(calendar.id))
      }
      try Self.checkVersion(calendar.id, fetched: calendar.version, stored: stored, overwrite: overwrite)
      var payload = Payload()
      payload.append(tag: 1, id: calendar.id)
      try appender.append(RecordDraft(kind: .calendarRemoved, principal: actor, payload: payload), in: &txn)
    }
  }
}
