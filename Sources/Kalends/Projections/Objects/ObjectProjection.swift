internal import LMDB

/// The current state of every calendar, event and reminder, with its version (the position that
/// last changed it), and which items each calendar holds.
///
/// Databases:
/// - `objects`: key `type (1 byte: 1 calendar, 2 event, 3 reminder, 4 account) ‖ id (16)`, value a
///   ``StoredObject`` entry: `version (8) ‖ modified timestamp (8) ‖ live (1) ‖ calendar id (16)`,
///   and for a live item with an external identifier its digest (16), then for one with a resource
///   name that name's (16). The state is not copied:
///   it is field 5 of the log record at `version`, read from the log (the log is the truth, and a
///   copy doubled what every save wrote). A removed object keeps a tombstone (`live` 0) so that
///   saving it again is refused, not a silent re-creation; an event or reminder removed by a
///   removal of its own keeps there the position of its last save (8), which names what it was.
/// - `objects.byCalendar`: key `calendar id (16) ‖ type (1) ‖ id (16)`, value the item's version (8,
///   big-endian): the live items of each calendar, so that a calendar's stamp (its latest item and
///   count: CalDAV's `getctag`) is one sequential read of its entries.
/// - `objects.byExternalID`: key `calendar id (16) ‖ type (2 event, 3 reminder) (1) ‖ the first 16
///   bytes of SHA-256(external identifier) ‖ id (16)`, empty value: the live events and reminders
///   of each calendar by external identifier (iCalendar's `UID`), for imports and CalDAV; with the
///   type's high bit set (0x82, 0x83) and the digest of a resource name, the items a CalDAV client
///   stored under a name that is not their `UID` (``Event/resourceName``).
struct ObjectProjection: Projection {
  static let name = "objects"
  static let version: UInt32 = 6
  /// The names of the LMDB databases it owns: the objects, their index by calendar and by external identifier.
  enum DatabaseName {
    static let objects = "objects"
    static let byCalendar = "objects.byCalendar"
    static let byExternalID = "objects.byExternalID"
  }
  static let databaseNames = [DatabaseName.objects, DatabaseName.byCalendar, DatabaseName.byExternalID]
  static let kinds: Set<RecordKind> = [
    .calendarSaved, .calendarRemoved, .eventSaved, .eventRemoved, .reminderSaved, .reminderRemoved, .sourceSaved,
    .sourceRemoved,
  ]

  let objects: Database
  let byCalendar: Database
  let byExternalID: Database
  /// The log, which holds every object's state.
  let log: Database

  init(databases: [String: Database], log: Database) {
    objects = databases[DatabaseName.objects]!
    byCalendar = databases[DatabaseName.byCalendar]!
    byExternalID = databases[DatabaseName.byExternalID]!
    self.log = log
  }

  func makeBulkLoader() -> (any ProjectionBulkLoader)? { ObjectBulkLoader(self) }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    switch header.kind {
    case .sourceSaved, .sourceRemoved:
      let id = try PayloadReader(bytes: payload).requiredObjectID(1)
      try put(ObjectKind.source.key(id), live: header.kind == .sourceSaved, calendar: id, trailer: .none, header, &txn)
    case .calendarSaved:
      let id = try PayloadReader(bytes: payload).requiredObjectID(1)
      try put(ObjectKind.calendar.key(id), live: true, calendar: id, trailer: .none, header, &txn)
    case .calendarRemoved:
      let id = try PayloadReader(bytes: payload).requiredObjectID(1)
      let items = try txn.withCursor(on: byCalendar) { try $0.keys(withPrefix: id.bytes) }
      let external = try txn.withCursor(on: byExternalID) { try $0.keys(withPrefix: id.bytes) }
      for key in external { try txn.delete(key, in: byExternalID) }
      for key in items {
        try txn.delete(key, in: byCalendar)
        try put(Array(key[16...]), live: false, calendar: id, trailer: .none, header, &txn)
      }
      try put(ObjectKind.calendar.key(id), live: false, calendar: id, trailer: .none, header, &txn)
    case .eventSaved, .reminderSaved:
      let fields = try PayloadReader(bytes: payload)
      let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let calendar = try fields.requiredObjectID(2)
      if let previous = try entry(kind, id, in: txn), previous.isLive {
        if previous.calendarID != calendar { try txn.delete(previous.calendarID.bytes + kind.key(id), in: byCalendar) }
        try removeExternalID(of: previous, kind, id, &txn)
      }
      let state = try PayloadReader(Payload(bytes: fields.bytes(5) ?? []))
      let trailer = StoredObject.Trailer.live(
        try state.string(1).map { Array($0.utf8).withUnsafeBytes(Self.externalDigest) },
        name: try state.string(22).map { Array($0.utf8).withUnsafeBytes(Self.externalDigest) })
      try put(kind.key(id), live: true, calendar: calendar, trailer: trailer, header, &txn)
      try txn.put(Self.versionValue(header.position), forKey: calendar.bytes + kind.key(id), in: byCalendar)
      if let external = trailer.external {
        try txn.put([UInt8](), forKey: Self.externalKey(calendar, kind, external) + id.bytes, in: byExternalID)
      }
      if case .named(_, let name) = trailer {
        try txn.put([UInt8](), forKey: Self.nameKey(calendar, kind, name) + id.bytes, in: byExternalID)
      }
    case .eventRemoved, .reminderRemoved:
      let fields = try PayloadReader(bytes: payload)
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let previous = try entry(kind, id, in: txn)
      let calendar = try previous?.calendarID ?? fields.requiredObjectID(2)
      try txn.delete(calendar.bytes + kind.key(id), in: byCalendar)
      var trailer = StoredObject.Trailer.none
      if let previous, previous.isLive {
        try removeExternalID(of: previous, kind, id, &txn)
        trailer = .lastSave(previous.version.rawValue)
      }
      try put(kind.key(id), live: false, calendar: calendar, trailer: trailer, header, &txn)
    default:
      break
    }
  }

  /// Deletes the `objects.byExternalID` entry of a live stored item.
  private func removeExternalID(
    of stored: StoredObject, _ kind: ObjectKind, _ id: ObjectID, _ txn: inout WriteTransaction
  ) throws {
    guard let digest = stored.externalDigest else { return }
    try txn.delete(Self.externalKey(stored.calendarID, kind, digest) + id.bytes, in: byExternalID)
    if let name = stored.nameDigest {
      try txn.delete(Self.nameKey(stored.calendarID, kind, name) + id.bytes, in: byExternalID)
    }
  }

  /// An `objects.byCalendar` value: the item's version, 8 bytes big-endian.
  static func versionValue(_ version: LogPosition) -> [UInt8] {
    withUnsafeBytes(of: version.rawValue.bigEndian) { Array($0) }
  }

  /// The prefix of the `objects.byExternalID` keys of the external identifier whose digest is
  /// `digest` in `calendar`.
  static func externalKey(_ calendar: ObjectID, _ kind: ObjectKind, _ digest: StoredObject.ExternalDigest) -> [UInt8] {
    var key = calendar.bytes + [kind.rawValue]
    RecordCodec.appendBigEndian(digest.0, to: &key)
    RecordCodec.appendBigEndian(digest.1, to: &key)
    return key
  }

  /// The prefix of the `objects.byExternalID` keys of the resource name whose digest is `digest` in
  /// `calendar`: the type with its high bit set.
  static func nameKey(_ calendar: ObjectID, _ kind: ObjectKind, _ digest: StoredObject.ExternalDigest) -> [UInt8] {
    var key = externalKey(calendar, kind, digest)
    key[16] |= 0x80
    return key
  }

  /// What stands for an external identifier (its UTF-8 bytes) in `objects.byExternalID` keys: the
  /// first 16 bytes of its SHA-256, as two big-endian numbers (so they sort like those bytes).
  static func externalDigest(_ utf8: UnsafeRawBufferPointer) -> StoredObject.ExternalDigest {
    SHA256.hash(data: utf8).withUnsafeBytes { digest in
      (
        UInt64(bigEndian: digest.loadUnaligned(as: UInt64.self)),
        UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      )
    }
  }

  /// The live items of `kind` in `calendar` whose external identifier is `external`; `known`, an
  /// item already read in the same transaction, is not read again.
  func items(
    _ kind: ObjectKind, externalID external: String, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction,
    known: (id: ObjectID, stored: StoredObject)? = nil
  ) throws -> [(ObjectID, StoredObject)] {
    let prefix = Self.externalKey(calendar, kind, Array(external.utf8).withUnsafeBytes(Self.externalDigest))
    let keys = try txn.withCursor(on: byExternalID) { try $0.keys(withPrefix: prefix) }
    return try keys.compactMap { key in
      let id = ObjectID(bytes: key[33...])!
      guard let stored = try id == known?.id ? known?.stored : state(kind, id, in: txn), stored.isLive,
        try stored.state.string(1) == external
      else { return nil }
      return (id, stored)
    }
  }

  /// The live items of `kind` in `calendar` a CalDAV client finds at the resource name `name`:
  /// those stored under that name (``Event/resourceName``), else those whose `UID` it is and that
  /// have no name of their own.
  func items(
    _ kind: ObjectKind, named name: String, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> [(ObjectID, StoredObject)] {
    let prefix = Self.nameKey(calendar, kind, Array(name.utf8).withUnsafeBytes(Self.externalDigest))
    let keys = try txn.withCursor(on: byExternalID) { try $0.keys(withPrefix: prefix) }
    let named = try keys.compactMap { key -> (ObjectID, StoredObject)? in
      let id = ObjectID(bytes: key[33...])!
      guard let stored = try state(kind, id, in: txn), stored.isLive, try stored.state.string(22) == name
      else { return nil }
      return (id, stored)
    }
    guard named.isEmpty else { return named }
    return try items(kind, externalID: name, inCalendar: calendar, in: txn).filter { try $0.1.state.string(22) == nil }
  }

  private func put(
    _ key: [UInt8], live: Bool, calendar: ObjectID, trailer: StoredObject.Trailer, _ header: LogRecordHeader,
    _ txn: inout WriteTransaction
  ) throws {
    let entry = StoredObject.encode(
      position: header.position, timestamp: header.timestamp, live: live, calendar: calendar, trailer: trailer)
    try txn.put(entry, forKey: key, in: objects)
  }

  /// The identifiers of the live items of `kind` in the calendar `calendar`, in key order.
  func items(_ kind: ObjectKind, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> [ObjectID]
  {
    let prefix = calendar.bytes + [kind.rawValue]
    return try txn.withCursor(on: byCalendar) { try $0.keys(withPrefix: prefix) }.map {
      ObjectID(bytes: $0[17...])!
    }
  }

  /// The latest version among the live items of `kind` in `calendar`, and how many there are, from
  /// their entries alone (no state is read). Any change to the calendar's items changes one or the
  /// other: an added or changed item is the newest, a removal lowers the count.
  func latest(
    _ kind: ObjectKind, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> (version: LogPosition, count: Int) {
    var latest: UInt64 = 0
    var count = 0
    try txn.withCursor(on: byCalendar) { cursor in
      try cursor.forEach(withPrefix: calendar.bytes + [kind.rawValue]) { _, value in
        guard value.byteCount == 8 else {
          throw StoreError.malformedPayload("an objects.byCalendar entry is not a version")
        }
        latest = max(latest, UInt64(bigEndian: value.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)))
        count += 1
      }
    }
    return (LogPosition(latest), count)
  }

  /// Every live object of `kind` — a calendar or an account, whose entry's calendar is its own
  /// identifier — with its state, in key order.
  func live(_ kind: ObjectKind, in txn: borrowing ReadTransaction) throws -> [StoredObject] {
    var found: [StoredObject] = []
    try txn.withCursor(on: objects) { cursor in
      guard try cursor.seek(atLeast: [kind.rawValue]) else { return }
      try cursor.scanForward { key, value in
        guard key.byteCount == 17, key.unsafeLoad(fromByteOffset: 0, as: UInt8.self) == kind.rawValue else {
          return .stop
        }
        let stored = try StoredObject(entry: value)
        guard stored.isLive else { return .continue }
        found.append(try withState(stored, kind, stored.calendarID, in: txn))
        return .continue
      }
    }
    return found
  }

  /// The `objects` entry of an object, live or removed, without its state; `nil` if it never
  /// existed.
  private func entry(_ kind: ObjectKind, _ id: ObjectID, in txn: borrowing WriteTransaction) throws -> StoredObject? {
    try txn.withValue(forKey: kind.key(id), in: objects) { try StoredObject(entry: $0) }
  }

  /// The stored object, live (with its state, read from the log) or removed; `nil` if it never
  /// existed.
  func state(_ kind: ObjectKind, _ id: ObjectID, in txn: borrowing WriteTransaction) throws -> StoredObject? {
    guard let stored = try entry(kind, id, in: txn) else { return nil }
    return try withState(stored, kind, id) { position, body in
      try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log, body)
    }
  }

  /// The stored object, live (with its state, read from the log) or removed; `nil` if it never
  /// existed.
  func state(_ kind: ObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction) throws -> StoredObject? {
    guard let entry = try txn.withValue(forKey: kind.key(id), in: objects, { try StoredObject(entry: $0) }) else {
      return nil
    }
    return try withState(entry, kind, id, in: txn)
  }

  /// `stored`, an entry of the object `kind` `id`, with its state read from the log when it is live.
  func withState(
    _ stored: StoredObject, _ kind: ObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> StoredObject {
    try withState(stored, kind, id) { position, body in
      try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log, body)
    }
  }

  /// The state an item removed by a removal of its own had at its last save (``StoredObject/lastSave``):
  /// empty once that save's content is erased; `nil` when `stored` names no such save (it is live,
  /// a calendar, or was removed with its calendar).
  func lastState(
    _ stored: StoredObject, _ kind: ObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> PayloadReader? {
    guard !stored.isLive, let lastSave = stored.lastSave else { return nil }
    return try SavedState.read(
      kind.description, id, saveKind: kind.saveKind, at: lastSave, projection: ObjectProjection.name
    ) { position, body in
      try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log, body)
    }
  }

  /// `stored` with its state: field 5 of the record at its version, which must be a save of this
  /// object (`read` calls its closure with that record's bytes, or returns `nil` when it has none).
  private func withState(
    _ stored: StoredObject, _ kind: ObjectKind, _ id: ObjectID,
    read: (LogPosition, (RawSpan) throws -> PayloadReader) throws -> PayloadReader?
  ) throws -> StoredObject {
    guard stored.isLive else { return stored }
    let state = try SavedState.read(
      kind.description, id, saveKind: kind.saveKind, at: stored.version, projection: ObjectProjection.name, read: read)
    var resolved = stored
    resolved.state = state
    return resolved
  }
}

/// The kinds of object the projection holds.
enum ObjectKind: UInt8, Sendable, CustomStringConvertible {
  case calendar = 1
  case event, reminder
  /// An account (`sourceSaved`), keyed by its id; its "calendar" is its own id.
  case source

  func key(_ id: ObjectID) -> [UInt8] { [rawValue] + id.bytes }

  /// Its name in messages, spelled out: interpolating an enum reflects on it, which every read of
  /// a state would pay for.
  var description: String {
    switch self {
    case .calendar: "calendar"
    case .event: "event"
    case .reminder: "reminder"
    case .source: "account"
    }
  }

  /// The kind of the records that save an object of this kind.
  var saveKind: RecordKind {
    switch self {
    case .calendar: .calendarSaved
    case .event: .eventSaved
    case .reminder: .reminderSaved
    case .source: .sourceSaved
    }
  }
}
