internal import LMDB

extension EventStore {
  /// The objects of the account calendar `calendarID` that the person or apps changed and that its
  /// server does not hold yet, in the order of their first change: the outbox a sync sends
  /// (``OutboxProjection``). The person's only.
  package func outgoing(inCalendar calendarID: ObjectID) throws(StoreError) -> [OutgoingObject] {
    try requireOwner("sync accounts")
    let outbox = try store.projection(OutboxProjection.self)
    return try read(records: false) { txn, objects, _ in
      try outbox.pending(inCalendar: calendarID, in: txn).map { waiting in
        let events = try objects.items(.event, named: waiting.name, inCalendar: calendarID, in: txn).map {
          try Self.decodeEvent($0, $1)
        }
        let reminders =
          events.isEmpty
          ? try objects.items(.reminder, named: waiting.name, inCalendar: calendarID, in: txn).map(
            Self.decodeStoredReminder) : []
        let uid = events.first?.externalID ?? reminders.first?.externalID
        return OutgoingObject(
          name: waiting.name, baseEntityTag: waiting.base, carries: waiting.last,
          object: uid.map { CalendarObject(uid: $0, name: waiting.name, events: events, reminders: reminders) })
      }
    }
  }

  /// How many objects of each account calendar or address book wait to go out, by its id; those
  /// with none are left out. The person's only.
  package func outgoingCounts(inCollections calendarIDs: [ObjectID]) throws(StoreError) -> [ObjectID: Int] {
    try requireOwner("sync accounts")
    let outbox = try store.projection(OutboxProjection.self)
    return try read(records: false) { txn, _, _ in
      var counts: [ObjectID: Int] = [:]
      for id in calendarIDs {
        let count = try outbox.pendingCount(inCalendar: id, in: txn)
        if count > 0 { counts[id] = count }
      }
      return counts
    }
  }

  /// The conflicts recorded in the account calendar `calendarID`, oldest first. The person's only.
  public func remoteConflicts(inCalendar calendarID: ObjectID) throws(StoreError) -> [RemoteConflict] {
    try requireOwner("sync accounts")
    let outbox = try store.projection(OutboxProjection.self)
    return try read(records: false) { txn, _, _ in try outbox.conflicts(inCalendar: calendarID, in: txn) }
  }

  /// Records that the server of the account calendar `calendarID` now holds each of `deliveries`
  /// — the store's object under its name, as ``outgoing(inCalendar:)`` gave it, with the `ETag` the
  /// server answered (`nil`: it holds nothing under the name, or answered without an `ETag`) — in
  /// one transaction: a ``RecordKind/remoteDelivered`` record each, by the account, which takes the
  /// object out of the outbox unless a later local change waits. The person's only.
  package func recordDeliveries(
    _ deliveries: [(object: OutgoingObject, entityTag: String?)], inCalendar calendarID: ObjectID
  ) throws(StoreError) {
    try requireOwner("sync accounts")
    guard !deliveries.isEmpty else { return }
    try write(nil) { txn, appender, objects in
      let calendar = try liveCalendar(calendarID, objects: objects, in: txn)
      guard calendar.remote != nil else { throw StoreError.calendar(.notAnAccountCalendar(calendarID)) }
      for (object, entityTag) in deliveries {
        try Self.appendDelivered(
          object.name, entityTag: entityTag, carries: object.carries, events: object.object?.events.map(\.id) ?? [],
          reminders: object.object?.reminders.map(\.id) ?? [], calendar: calendarID,
          .source(calendar.source.id.description), &txn, &appender)
      }
    }
  }

  /// The collections of the account `accountID` whose calendars the person or an app removed here,
  /// and that its server still holds: each removed calendar's id and its collection's address. A
  /// sync removes them there (``recordCollectionRemoved(_:ofAccount:)``). The person's only.
  package func removedCollections(ofAccount accountID: ObjectID) throws(StoreError) -> [(
    calendar: ObjectID, url: String
  )] {
    try requireOwner("sync accounts")
    let outbox = try store.projection(OutboxProjection.self)
    return try read(records: false) { txn, _, _ in try outbox.removedCollections(ofAccount: accountID, in: txn) }
  }

  /// Records that the server of the account `accountID` no longer holds the collection of the
  /// removed calendar `calendarID` (it removed it, or had already): a
  /// ``RecordKind/remoteDelivered`` record with an empty name, by the account. The person's only.
  package func recordCollectionRemoved(_ calendarID: ObjectID, ofAccount accountID: ObjectID) throws(StoreError) {
    try requireOwner("sync accounts")
    try write(nil) { txn, appender, _ in
      try Self.appendDelivered(
        "", entityTag: nil, carries: appender.head.position, calendar: calendarID, .source(accountID.description),
        &txn, &appender)
    }
  }

  /// Appends a ``RecordKind/remoteDelivered`` record by the account `source`: its server holds the
  /// object `name` of the calendar or address book `calendarID` (empty: the collection itself,
  /// removed) with `entityTag`, as the store's change at `carries` left it, with these items (a
  /// card's: its contact or group).
  static func appendDelivered(
    _ name: String, entityTag: String?, carries: LogPosition, events: [ObjectID] = [], reminders: [ObjectID] = [],
    contacts: [ObjectID] = [], groups: [ObjectID] = [], calendar calendarID: ObjectID, _ source: Principal,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    var payload = Payload()
    payload.append(tag: 1, id: calendarID)
    payload.append(tag: 2, string: name)
    payload.append(tag: 3, optional: entityTag)
    payload.append(tag: 4, unsigned: carries.rawValue)
    for id in events { payload.append(tag: 5, id: id) }
    for id in reminders { payload.append(tag: 6, id: id) }
    for id in contacts { payload.append(tag: 7, id: id) }
    for id in groups { payload.append(tag: 8, id: id) }
    try appender.append(RecordDraft(kind: .remoteDelivered, principal: source, payload: payload), in: &txn)
  }

  /// Appends a ``RecordKind/remoteConflict`` record by the account `source`: the local change of
  /// the object `name` of the calendar or address book `collection` at `localVersion`, based on
  /// `base`, met the server's `serverTag` (`nil`: the server removed it).
  static func appendConflict(
    _ name: String, localVersion: LogPosition, base: String?, serverTag: String?, collection: ObjectID,
    _ source: Principal, _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    var payload = Payload()
    payload.append(tag: 1, id: collection)
    payload.append(tag: 2, string: name)
    payload.append(tag: 3, unsigned: localVersion.rawValue)
    payload.append(tag: 4, optional: base)
    payload.append(tag: 5, optional: serverTag)
    try appender.append(RecordDraft(kind: .remoteConflict, principal: source, payload: payload), in: &txn)
  }
}
