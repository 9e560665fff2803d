internal import LMDB

/// What waits to go out to the accounts' servers: the objects of account calendars and the cards
/// of account address books that the person or an app changed since the server last held them, derived from the log like every projection —
/// so the outbox is as durable as the log, survives a crash exactly, and is rebuilt with the rest.
///
/// A save or removal of an item in a calendar mirroring a collection (``EventCalendar/remote``)
/// made by anyone but that calendar's account (`source:ID`) puts the item's object in the outbox,
/// with the server's `ETag` it was based on (what `If-Match` must name); a record of the account
/// (the server's version applied, ``RecordKind/remoteDelivered``) takes it out. A change the
/// account brought is therefore never sent back.
///
/// An address book mirroring a collection (``ContactContainer/remote``) is such a collection too,
/// its cards kept in `outbox.cards` (``OutboxProjection+Cards.swift``): a contact's card goes out
/// when its content changes here, a group's when its name or its members do (a contact joining or
/// leaving it), and the account's saves that carry the server's `ETag` (`remoteEntityTag`) are the
/// server's versions.
///
/// Databases (a "collection" is an account calendar or address book, by its id):
/// - `outbox.calendars`: key `collection id (16)` → its account's id (16): the collections
///   mirrored.
/// - `outbox.items`: key `calendar id (16) ‖ type (1: 2 event, 3 reminder) ‖ id (16)` → payload
///   {1 name in the collection, 2 the server's `ETag` of its object, when the server holds it}.
/// - `outbox.cards`: key `type (1: 4 contact, 5 group) ‖ id (16)` → payload {1 its address
///   book's id, 2 name in the collection, 3 the server's `ETag`, 4 a contact's groups (repeated), 5
///   a digest of a contact's card}.
/// - `outbox.pending`: key `collection id (16) ‖ the first 16 bytes of SHA-256(name)` → payload {1
///   name, 2 base `ETag` (absent: the server does not hold it), 3 the first local change's position,
///   4 the last one's}.
/// - `outbox.conflicts`: key `collection id (16) ‖ position (8)` of a ``RecordKind/remoteConflict``
///   record → payload {1 name, 2 the local change's position, 3 the server's `ETag` (absent: the
///   server removed it)}.
/// - `outbox.collections`: key `calendar id (16)` → payload {1 the collection's address, 2 the
///   account's id}: the account calendars whose collections the server holds.
/// - `outbox.removed`: the same, for those of them the person or an app removed here: their
///   collections wait to be removed on the server; a ``RecordKind/remoteDelivered`` record with an
///   empty name takes one out.
struct OutboxProjection: Projection {
  static let name = "outbox"
  static let version: UInt32 = 3
  enum DatabaseName {
    static let calendars = "outbox.calendars"
    static let items = "outbox.items"
    static let pending = "outbox.pending"
    static let conflicts = "outbox.conflicts"
    static let collections = "outbox.collections"
    static let removed = "outbox.removed"
    static let cards = "outbox.cards"
  }
  static let databaseNames = [
    DatabaseName.calendars, DatabaseName.items, DatabaseName.pending, DatabaseName.conflicts,
    DatabaseName.collections, DatabaseName.removed, DatabaseName.cards,
  ]
  static let kinds: Set<RecordKind> = [
    .calendarSaved, .calendarRemoved, .eventSaved, .eventRemoved, .reminderSaved, .reminderRemoved,
    .remoteDelivered, .remoteConflict, .sourceRemoved, .addressBookSaved, .addressBookRemoved, .contactSaved,
    .contactRemoved, .groupSaved, .groupRemoved,
  ]

  let calendars: Database
  let items: Database
  let pending: Database
  let conflicts: Database
  let collections: Database
  let removed: Database
  let cards: Database

  init(databases: [String: Database], log: Database) {
    collections = databases[DatabaseName.collections]!
    removed = databases[DatabaseName.removed]!
    calendars = databases[DatabaseName.calendars]!
    items = databases[DatabaseName.items]!
    pending = databases[DatabaseName.pending]!
    conflicts = databases[DatabaseName.conflicts]!
    cards = databases[DatabaseName.cards]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    if [.eventSaved, .reminderSaved, .eventRemoved, .reminderRemoved].contains(header.kind) {
      // Most items are in no account calendar: two fields found without copying the payload, and
      // one lookup each, decide that before anything is decoded.
      let index = try PayloadFieldIndex(payload)
      var involved = false
      for tag: UInt8 in [2, 7] {
        guard let range = index[tag], range.count == 16 else { continue }
        if try txn.contains(ObjectID(payload, at: range.lowerBound).bytes, in: calendars) { involved = true }
      }
      guard involved else { return }
    }
    if Self.cardKinds.contains(header.kind) {
      try applyCard(header, payload: payload, in: &txn)
      return
    }
    let fields = try PayloadReader(bytes: payload)
    switch header.kind {
    case .calendarSaved:
      let state = try PayloadReader(Payload(bytes: fields.bytes(5) ?? []))
      try collectionSaved(try fields.requiredObjectID(1), account: try state.objectID(3), remote: state.bytes(13), &txn)
    case .calendarRemoved:
      try collectionRemoved(try fields.requiredObjectID(1), header, &txn)
    case .eventSaved, .reminderSaved:
      let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let calendar = try fields.requiredObjectID(2)
      if let movedFrom = try fields.objectID(7), movedFrom != calendar {
        try removed(kind, id, from: movedFrom, header, &txn)
      }
      guard let account = try account(of: calendar, &txn) else { return }
      let state = try PayloadReader(Payload(bytes: fields.bytes(5) ?? []))
      let name = try state.string(22) ?? state.requiredString(1)
      let key = calendar.bytes + kind.key(id)
      let previous = try txn.value(forKey: key, in: items).map { try Item(PayloadReader(Payload(bytes: $0))) }
      if header.principal == .source(account.description) {
        // The server's version, applied: it is what the server holds, and nothing waits.
        try txn.put(Item(name: name, entityTag: try state.string(26)).encoded, forKey: key, in: items)
        if let previous, previous.name != name { try unqueue(previous.name, calendar, &txn) }
        try unqueue(name, calendar, &txn)
        return
      }
      if let previous, previous.name != name {
        // Renamed: the old name is gone from the collection, the new one holds no server version.
        try queue(previous.name, base: previous.entityTag, calendar, header.position, &txn)
        try txn.put(Item(name: name, entityTag: nil).encoded, forKey: key, in: items)
        try queue(name, base: nil, calendar, header.position, &txn)
      } else {
        let entityTag = previous?.entityTag
        if previous == nil { try txn.put(Item(name: name, entityTag: nil).encoded, forKey: key, in: items) }
        try queue(name, base: entityTag, calendar, header.position, &txn)
      }
    case .eventRemoved, .reminderRemoved:
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      guard let calendar = try fields.objectID(2) else { return }
      try removed(kind, try fields.requiredObjectID(1), from: calendar, header, &txn)
    case .sourceRemoved:
      // An account removed takes its calendars with it here, never its collections there.
      let account = try fields.requiredObjectID(1)
      let keys = try txn.withCursor(on: removed) { cursor in
        var keys: [[UInt8]] = []
        try cursor.forEach(withPrefix: []) { key, value in
          if try PayloadReader(Payload(bytes: Array(copying: value))).objectID(2) == account { keys.append(key) }
        }
        return keys
      }
      for key in keys { try txn.delete(key, in: removed) }
    case .remoteDelivered:
      let calendar = try fields.requiredObjectID(1)
      let name = try fields.requiredString(2)
      if name.isEmpty {
        _ = try txn.delete(calendar.bytes, in: removed)  // The collection itself, removed there.
        return
      }
      let entityTag = try fields.string(3)
      let carried = LogPosition(try fields.unsigned(4) ?? 0)
      for (tag, kind) in [(UInt8(5), ObjectKind.event), (6, .reminder)] {
        for id in try fields.objectIDs(tag) {
          let key = calendar.bytes + kind.key(id)
          guard try txn.contains(key, in: items) else { continue }
          try txn.put(Item(name: name, entityTag: entityTag).encoded, forKey: key, in: items)
        }
      }
      for (tag, kind) in [(UInt8(7), ContactObjectKind.contact), (8, .group)] {
        for id in try fields.objectIDs(tag) { try delivered(kind, id, name: name, entityTag: entityTag, &txn) }
      }
      let key = Self.pendingKey(calendar, name)
      guard
        let waiting = try txn.value(forKey: key, in: pending).map({ try Pending(PayloadReader(Payload(bytes: $0))) })
      else { return }
      if waiting.last <= carried {
        try txn.delete(key, in: pending)
      } else {
        // Changed again while it was sent: what went out is now the base of what waits.
        var rest = waiting
        rest.base = entityTag
        try txn.put(rest.encoded, forKey: key, in: pending)
      }
    case .remoteConflict:
      let calendar = try fields.requiredObjectID(1)
      var entry = Payload()
      entry.append(tag: 1, string: try fields.requiredString(2))
      entry.append(tag: 2, unsigned: try fields.unsigned(3) ?? 0)
      entry.append(tag: 3, optional: try fields.string(5))
      try txn.put(entry.bytes, forKey: calendar.bytes + Payload.bigEndianBytes(header.position.rawValue), in: conflicts)
    default:
      break
    }
  }

  /// A calendar or address book `id` saved: with an `account` and a `remote` (its state's
  /// ``RemoteCollection``), it mirrors a collection, which the server holds unless it was made here
  /// and not yet there; without, it is forgotten.
  func collectionSaved(
    _ id: ObjectID, account: ObjectID?, remote remoteBytes: [UInt8]?, _ txn: inout WriteTransaction
  ) throws {
    guard let account, let remoteBytes else {
      if try txn.contains(id.bytes, in: calendars) { try forget(id, &txn) }
      return
    }
    try txn.put(account.bytes, forKey: id.bytes, in: calendars)
    let remote = try RemoteCollection(PayloadReader(Payload(bytes: remoteBytes)))
    if remote.isNew {
      _ = try txn.delete(id.bytes, in: collections)
    } else {
      var entry = Payload()
      entry.append(tag: 1, string: remote.url)
      entry.append(tag: 2, id: account)
      try txn.put(entry.bytes, forKey: id.bytes, in: collections)
    }
  }

  /// A calendar or address book `id` removed: removed here by anyone but its account, its
  /// collection waits to be removed on the server.
  func collectionRemoved(_ id: ObjectID, _ header: LogRecordHeader, _ txn: inout WriteTransaction) throws {
    if let entry = try txn.value(forKey: id.bytes, in: collections),
      let account = try PayloadReader(Payload(bytes: entry)).objectID(2),
      header.principal != .source(account.description)
    {
      try txn.put(entry, forKey: id.bytes, in: removed)
    }
    try forget(id, &txn)
  }

  /// The account of `calendar` when it mirrors a collection.
  func account(of calendar: ObjectID, _ txn: inout WriteTransaction) throws -> ObjectID? {
    try txn.value(forKey: calendar.bytes, in: calendars).flatMap { ObjectID(bytes: $0) }
  }

  /// The item `id` left the account calendar `calendar` (removed, or moved out of it).
  private func removed(
    _ kind: ObjectKind, _ id: ObjectID, from calendar: ObjectID, _ header: LogRecordHeader,
    _ txn: inout WriteTransaction
  ) throws {
    guard let account = try account(of: calendar, &txn) else { return }
    let key = calendar.bytes + kind.key(id)
    guard let bytes = try txn.value(forKey: key, in: items) else { return }
    let item = try Item(PayloadReader(Payload(bytes: bytes)))
    try txn.delete(key, in: items)
    if header.principal == .source(account.description) {
      try unqueue(item.name, calendar, &txn)
    } else {
      try queue(item.name, base: item.entityTag, calendar, header.position, &txn)
    }
  }

  /// Puts the object `name` of `calendar` in the outbox, changed at `position`: its base is the
  /// one of the change already waiting, else `base`.
  func queue(
    _ name: String, base: String?, _ calendar: ObjectID, _ position: LogPosition, _ txn: inout WriteTransaction
  ) throws {
    let key = Self.pendingKey(calendar, name)
    var entry = Pending(name: name, base: base, first: position, last: position)
    if let waiting = try txn.value(forKey: key, in: pending) {
      entry = try Pending(PayloadReader(Payload(bytes: waiting)))
      entry.last = position
    }
    try txn.put(entry.encoded, forKey: key, in: pending)
  }

  /// Takes the object `name` of `calendar` out of the outbox.
  func unqueue(_ name: String, _ calendar: ObjectID, _ txn: inout WriteTransaction) throws {
    _ = try txn.delete(Self.pendingKey(calendar, name), in: pending)
  }

  /// Forgets the calendar or address book: removed, or no longer mirroring a collection.
  func forget(_ calendar: ObjectID, _ txn: inout WriteTransaction) throws {
    try forgetCards(ofContainer: calendar, &txn)
    _ = try txn.delete(calendar.bytes, in: calendars)
    _ = try txn.delete(calendar.bytes, in: collections)
    for database in [items, pending, conflicts] {
      let keys = try txn.withCursor(on: database) { try $0.keys(withPrefix: calendar.bytes) }
      for key in keys { try txn.delete(key, in: database) }
    }
  }

  static func pendingKey(_ calendar: ObjectID, _ name: String) -> [UInt8] {
    let digest = Array(name.utf8).withUnsafeBytes(ObjectProjection.externalDigest)
    return calendar.bytes + Payload.bigEndianBytes(digest.0) + Payload.bigEndianBytes(digest.1)
  }

  // MARK: Reading

  /// The server's `ETag` of each object of `calendar` it holds, by name.
  func entityTags(inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> [String: String] {
    var tags: [String: String] = [:]
    try txn.withCursor(on: items) { cursor in
      try cursor.forEach(withPrefix: calendar.bytes) { _, value in
        let item = try Item(PayloadReader(Payload(bytes: Array(copying: value))))
        if let tag = item.entityTag { tags[item.name] = tag } else if tags[item.name] == nil { tags[item.name] = "" }
      }
    }
    return tags
  }

  /// The server's `ETag` of the item `id` of `calendar`, when the server holds its object.
  func entityTag(
    _ kind: ObjectKind, _ id: ObjectID, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> Item? {
    try txn.value(forKey: calendar.bytes + kind.key(id), in: items).map { try Item(PayloadReader(Payload(bytes: $0))) }
  }

  /// The objects of `calendar` waiting to go out, in the order of their first change.
  func pending(inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> [Pending] {
    var found: [Pending] = []
    try txn.withCursor(on: pending) { cursor in
      try cursor.forEach(withPrefix: calendar.bytes) { _, value in
        found.append(try Pending(PayloadReader(Payload(bytes: Array(copying: value)))))
      }
    }
    return found.sorted { $0.first < $1.first }
  }

  /// How many objects of `calendar` wait to go out: its entries counted, none decoded.
  func pendingCount(inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> Int {
    var count = 0
    try txn.withCursor(on: pending) { cursor in try cursor.forEach(withPrefix: calendar.bytes) { _, _ in count += 1 } }
    return count
  }

  /// The object `name` of `calendar` waiting to go out, if it is.
  func pending(_ name: String, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> Pending? {
    try txn.value(forKey: Self.pendingKey(calendar, name), in: pending).map {
      try Pending(PayloadReader(Payload(bytes: $0)))
    }
  }

  /// The collections of the account `account` removed here and still held by its server: each
  /// removed calendar's id and its collection's address.
  func removedCollections(
    ofAccount account: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> [(calendar: ObjectID, url: String)] {
    var found: [(ObjectID, String)] = []
    try txn.withCursor(on: removed) { cursor in
      try cursor.forEach(withPrefix: []) { key, value in
        let entry = try PayloadReader(Payload(bytes: Array(copying: value)))
        guard try entry.objectID(2) == account, let id = ObjectID(bytes: key) else { return }
        found.append((id, try entry.requiredString(1)))
      }
    }
    return found
  }

  /// The conflicts recorded in `calendar`, oldest first.
  func conflicts(inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> [RemoteConflict] {
    var found: [RemoteConflict] = []
    try txn.withCursor(on: conflicts) { cursor in
      try cursor.forEach(withPrefix: calendar.bytes) { key, value in
        let entry = try PayloadReader(Payload(bytes: Array(copying: value)))
        found.append(
          RemoteConflict(
            position: LogPosition(RecordCodec.readBigEndian(key[16..<24])), name: try entry.requiredString(1),
            localVersion: LogPosition(try entry.unsigned(2) ?? 0), serverEntityTag: try entry.string(3)))
      }
    }
    return found
  }

  /// An item of an account calendar: its object's name, and the server's `ETag` of it.
  struct Item: Equatable {
    var name: String
    var entityTag: String?

    init(name: String, entityTag: String?) {
      self.name = name
      self.entityTag = entityTag
    }

    init(_ fields: PayloadReader) throws(StoreError) {
      name = try fields.requiredString(1)
      entityTag = try fields.string(2)
    }

    var encoded: [UInt8] {
      var payload = Payload()
      payload.append(tag: 1, string: name)
      payload.append(tag: 2, optional: entityTag)
      return payload.bytes
    }
  }

  /// An object waiting to go out.
  struct Pending: Equatable {
    var name: String
    /// The server's `ETag` it was based on; `nil` when the server does not hold it.
    var base: String?
    /// Its first and last local change since the server last held it.
    var first: LogPosition
    var last: LogPosition

    init(name: String, base: String?, first: LogPosition, last: LogPosition) {
      (self.name, self.base, self.first, self.last) = (name, base, first, last)
    }

    init(_ fields: PayloadReader) throws(StoreError) {
      name = try fields.requiredString(1)
      base = try fields.string(2)
      first = LogPosition(try fields.unsigned(3) ?? 0)
      last = LogPosition(try fields.unsigned(4) ?? 0)
    }

    var encoded: [UInt8] {
      var payload = Payload()
      payload.append(tag: 1, string: name)
      payload.append(tag: 2, optional: base)
      payload.append(tag: 3, unsigned: first.rawValue)
      payload.append(tag: 4, unsigned: last.rawValue)
      return payload.bytes
    }
  }
}
