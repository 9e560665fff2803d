internal import LMDB

extension EventStore {
  /// The work of `PrivacySettings.erase`, checked for the person again.
  @discardableResult
  func erase(_ item: ErasableItem, reason: String? = nil) throws(StoreError) -> Erasure {
    try requireOwner("erase content")
    try Self.checkText(reason, field: "reason")
    let range = try store.projection(RangeProjection.self)
    let log = store.log
    // Most of the log is searched in a snapshot, without holding the writer's lock; what was
    // appended since is searched inside the write.
    // An event's erasure takes the parts of its series split from it: they hold its content too.
    let (seen, family, carried) = try StoreError.wrapping {
      try store.environment.read { txn in
        let head = try Store.loadHead(meta: store.meta, in: txn).position
        var family: [ObjectID] = []
        if case .event(let id) = item {
          family = try Self.splitFamily(of: id, in: log, after: .none, known: [], txn: txn)
        }
        let items = [item] + family.map(ErasableItem.event)
        return (head, family, try Self.positions(carrying: items, in: log, after: .none, txn: txn))
      }
    }
    let book = try contactsBook()
    return try write(nil) { txn, appender, objects in
      let main = try Self.eraseOne(
        item, carried: carried, after: seen, reason: reason, objects: objects, book: book, range: range, &txn,
        &appender)
      guard case .event(let id) = item else { return main }
      let later = try txn.reading { try Self.splitFamily(of: id, in: log, after: seen, known: family, txn: $0) }
      let continuations = try (family + later).map { part in
        try Self.eraseOne(
          .event(part), carried: carried, after: seen, reason: reason, objects: objects, book: book, range: range,
          &txn, &appender)
      }
      return Erasure(
        item: main.item, removal: main.removal, erasedPositions: main.erasedPositions, record: main.record,
        continuations: continuations)
    }
  }

  /// Removes `item` when it is still there and erases the content of its records (those found in
  /// the snapshot, `carried`, and those appended after it, `after`), in the write transaction.
  private static func eraseOne(
    _ item: ErasableItem, carried: [ErasableItem: [LogPosition]], after seen: LogPosition, reason: String?,
    objects: ObjectProjection, book: ContactsProjection, range: RangeProjection, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> Erasure {
    let log = appender.log
    var removal: LogPosition?
    switch item {
    case .calendar, .event, .reminder:
      let kind = ObjectKind(rawValue: item.typeNumber)!
      guard let stored = try objects.state(kind, item.id, in: txn) else {
        if case .calendar(let id) = item { throw StoreError.calendar(.calendarNotFound(id)) }
        throw StoreError.calendar(.itemNotFound(item.id))
      }
      if stored.isLive {
        var payload = Payload()
        payload.append(tag: 1, id: item.id)
        if kind != .calendar { payload.append(tag: 2, id: stored.calendarID) }
        let record: RecordKind =
          kind == .calendar ? .calendarRemoved : kind == .event ? .eventRemoved : .reminderRemoved
        removal = try appender.append(RecordDraft(kind: record, principal: .person, payload: payload), in: &txn)
          .position
      }
    case .contact, .group:
      let kind = ContactObjectKind(rawValue: item.typeNumber)!
      guard let stored = try book.state(kind, item.id, in: txn) else {
        throw StoreError.contact(kind == .contact ? .contactNotFound(item.id) : .groupNotFound(item.id))
      }
      if stored.isLive {
        var payload = Payload()
        payload.append(tag: 1, id: item.id)
        removal = try appender.append(
          RecordDraft(kind: kind.removeKind, principal: .person, payload: payload), in: &txn
        ).position
      }
    }
    let later = try txn.reading { try Self.positions(carrying: [item], in: log, after: seen, txn: $0) }
    return try Self.eraseContent(
      of: item, at: (carried[item] ?? []) + (later[item] ?? []), removal: removal, by: .person, reason: reason,
      policy: nil, range: range, &txn, &appender)
  }

  /// The events split from event `id` (their first save names it as `splitFrom`), and those split
  /// from them, in log order, from the records after `after`; `known` are those found before.
  static func splitFamily(
    of id: ObjectID, in log: Database, after: LogPosition, known: [ObjectID], txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    var members: Set<ObjectID> = Set(known + [id])
    var found: [ObjectID] = []
    try txn.withCursor(on: log) { cursor in
      guard try cursor.seek(atLeast: BigEndianKey(after.rawValue + 1)) else { return }
      var principals = PrincipalCache()
      try cursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        guard decoded.header.kind == .eventSaved else { return .continue }
        let fields = try PayloadReader(bytes: value.extracting(decoded.payload))
        if let from = try fields.objectID(6), members.contains(from), let part = try fields.objectID(1),
          !members.contains(part)
        {
          members.insert(part)
          found.append(part)
        }
        return .continue
      }
    }
    return found
  }

  /// Rewrites the records at `positions` in their erased form and appends the `contentErased`
  /// record of `item` by `principal`; nothing when there is nothing left to erase.
  static func eraseContent(
    of item: ErasableItem, at positions: [LogPosition], removal: LogPosition?, by principal: Principal,
    reason: String?, policy: LogPosition?, range: RangeProjection, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> Erasure {
    var erased: [LogPosition] = []
    // A record erased from version 1 or 2 keeps a hash that no longer covers what is left of it:
    // this record binds what is left instead (field 9), and says it does (field 10), so that no
    // other erased record can be passed off as one of those.
    var legacy: [[UInt8]] = []
    for position in positions {
      let key = BigEndianKey(position.rawValue)
      guard let bytes = try txn.withValue(forKey: key, in: appender.log, { try RecordCodec.erasing($0) }) ?? nil
      else { continue }
      try txn.put(bytes, forKey: key, in: appender.log)
      erased.append(position)
      var principals = PrincipalCache()
      if try RecordCodec.sealedLayout(bytes.span.bytes, principals: &principals).form == .erasedLegacy {
        legacy.append(Payload.bigEndianBytes(position.rawValue) + RecordCodec.legacyErasureDigest(of: bytes.span.bytes))
      }
    }
    guard !erased.isEmpty else { return Erasure(item: item, removal: removal, erasedPositions: [], record: nil) }
    var payload = Payload()
    payload.append(tag: 1, unsigned: UInt64(item.typeNumber))
    payload.append(tag: 2, id: item.id)
    for position in erased { payload.append(tag: 3, unsigned: position.rawValue) }
    if let reason { payload.append(tag: 4, string: reason) }
    try range.coarsenBounds(&txn).append(to: &payload)
    if let policy { payload.append(tag: 8, unsigned: policy.rawValue) }
    // A store written as older versions wrote (tests only) erases as they did, without binding.
    if appender.sealsContent {
      for binding in legacy { payload.append(tag: 9, bytes: binding) }
      payload.append(tag: 10, bool: true)
    }
    let record = try appender.append(
      RecordDraft(kind: .contentErased, principal: principal, payload: payload), in: &txn)
    return Erasure(item: item, removal: removal, erasedPositions: erased, record: record.position)
  }

  /// The positions after `after` of the records that still carry content of each of `items`, in
  /// log order (a record can carry two of them: an item and its calendar).
  static func positions(
    carrying items: [ErasableItem], in log: Database, after: LogPosition, txn: borrowing ReadTransaction
  ) throws -> [ErasableItem: [LogPosition]] {
    var found: [ErasableItem: [LogPosition]] = [:]
    guard !items.isEmpty else { return found }
    let targets = ErasureTargets(items)
    try txn.withCursor(on: log) { cursor in
      guard try cursor.seek(atLeast: BigEndianKey(after.rawValue + 1)) else { return }
      var principals = PrincipalCache()
      try cursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        for item in try targets.items(carriedBy: decoded.header, payload: value.extracting(decoded.payload)) {
          found[item, default: []].append(decoded.header.position)
        }
        return .continue
      }
    }
    return found
  }
}
