internal import Crypto
internal import LMDB

/// The current state of every calendar, event and reminder, with its version (the position that
/// last changed it), and which items each calendar holds.
///
/// Databases:
/// - `objects`: key `type (1 byte: 1 calendar, 2 event, 3 reminder) ‖ id (16)`, value
///   `version (8) ‖ modified timestamp (8) ‖ live (1) ‖ calendar id (16) ‖ state payload`. A removed
///   object keeps a tombstone (`live` 0, no state) so that saving it again is refused, not a
///   silent re-creation.
/// - `objects.byCalendar`: key `calendar id (16) ‖ type (1) ‖ id (16)`, empty value: the live items
///   of each calendar.
/// - `objects.byExternalID`: key `calendar id (16) ‖ type (2 event, 3 reminder) (1) ‖ the first 16
///   bytes of SHA-256(external identifier) ‖ id (16)`, empty value: the live events and reminders
///   of each calendar by external identifier (iCalendar's `UID`), for imports.
struct ObjectProjection: Projection {
  static let name = "objects"
  static let version: UInt32 = 2
  static let databaseNames = ["objects", "objects.byCalendar", "objects.byExternalID"]
  static let kinds: Set<RecordKind> = [
    .calendarSaved, .calendarRemoved, .eventSaved, .eventRemoved, .reminderSaved, .reminderRemoved,
  ]

  let objects: Database
  let byCalendar: Database
  let byExternalID: Database

  init(databases: [String: Database]) {
    objects = databases["objects"]!
    byCalendar = databases["objects.byCalendar"]!
    byExternalID = databases["objects.byExternalID"]!
  }

  func makeBulkLoader() -> (any ProjectionBulkLoader)? { ObjectBulkLoader(self) }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    switch header.kind {
    case .calendarSaved:
      let fields = try PayloadReader(bytes: payload)
      let id = try fields.requiredObjectID(1)
      try put(.calendar, id, calendar: id, state: fields.bytes(5) ?? [], header, &txn)
    case .calendarRemoved:
      let id = try PayloadReader(bytes: payload).requiredObjectID(1)
      let items = try txn.withCursor(on: byCalendar) { try $0.keys(withPrefix: id.bytes) }
      let external = try txn.withCursor(on: byExternalID) { try $0.keys(withPrefix: id.bytes) }
      for key in external { try txn.delete(key, in: byExternalID) }
      for key in items {
        try txn.delete(key, in: byCalendar)
        try tombstone(Array(key[16...]), calendar: id, header, &txn)
      }
      try tombstone(ObjectKind.calendar.key(id), calendar: id, header, &txn)
    case .eventSaved, .reminderSaved:
      let fields = try PayloadReader(bytes: payload)
      let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let calendar = try fields.requiredObjectID(2)
      if let previous = try state(kind, id, in: txn), previous.isLive {
        if previous.calendarID != calendar { try txn.delete(previous.calendarID.bytes + kind.key(id), in: byCalendar) }
        try removeExternalID(of: previous, kind, id, &txn)
      }
      let state = fields.bytes(5) ?? []
      try put(kind, id, calendar: calendar, state: state, header, &txn)
      try txn.put([UInt8](), forKey: calendar.bytes + kind.key(id), in: byCalendar)
      if let external = try PayloadReader(Payload(bytes: state)).string(1) {
        try txn.put([UInt8](), forKey: Self.externalKey(calendar, kind, external) + id.bytes, in: byExternalID)
      }
    case .eventRemoved, .reminderRemoved:
      let fields = try PayloadReader(bytes: payload)
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let previous = try state(kind, id, in: txn)
      let calendar = try previous?.calendarID ?? fields.requiredObjectID(2)
      try txn.delete(calendar.bytes + kind.key(id), in: byCalendar)
      if let previous, previous.isLive { try removeExternalID(of: previous, kind, id, &txn) }
      try tombstone(kind.key(id), calendar: calendar, header, &txn)
    default:
      break
    }
  }

  /// Deletes the `objects.byExternalID` entry of a live stored item.
  private func removeExternalID(
    of stored: StoredObject, _ kind: ObjectKind, _ id: ObjectID, _ txn: inout WriteTransaction
  ) throws {
    guard let external = try stored.state.string(1) else { return }
    try txn.delete(Self.externalKey(stored.calendarID, kind, external) + id.bytes, in: byExternalID)
  }

  /// The prefix of the `objects.byExternalID` keys of `external` in `calendar`.
  static func externalKey(_ calendar: ObjectID, _ kind: ObjectKind, _ external: String) -> [UInt8] {
    var key = calendar.bytes + [kind.rawValue]
    let digest = Array(external.utf8).withUnsafeBytes { externalDigest($0) }
    RecordCodec.appendBigEndian(digest.0, to: &key)
    RecordCodec.appendBigEndian(digest.1, to: &key)
    return key
  }

  /// What stands for an external identifier (its UTF-8 bytes) in `objects.byExternalID` keys: the
  /// first 16 bytes of its SHA-256, as two big-endian numbers (so they sort like those bytes).
  static func externalDigest(_ utf8: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    SHA256.hash(data: utf8).withUnsafeBytes { digest in
      (
        UInt64(bigEndian: digest.loadUnaligned(as: UInt64.self)),
        UInt64(bigEndian: digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      )
    }
  }

  /// The live items of `kind` in `calendar` whose external identifier is `external`.
  func items(
    _ kind: ObjectKind, externalID external: String, inCalendar calendar: ObjectID, in txn: borrowing WriteTransaction
  ) throws -> [(ObjectID, StoredObject)] {
    let prefix = Self.externalKey(calendar, kind, external)
    let keys = try txn.withCursor(on: byExternalID) { try $0.keys(withPrefix: prefix) }
    return try keys.compactMap { key in
      let id = ObjectID(bytes: key[33...])!
      guard let stored = try state(kind, id, in: txn), stored.isLive, try stored.state.string(1) == external
      else { return nil }
      return (id, stored)
    }
  }

  private func put(
    _ kind: ObjectKind, _ id: ObjectID, calendar: ObjectID, state: [UInt8], _ header: LogRecordHeader,
    _ txn: inout WriteTransaction
  ) throws {
    try txn.put(
      StoredObject.encode(header: header, live: true, calendar: calendar, state: state), forKey: kind.key(id),
      in: objects)
  }

  private func tombstone(
    _ key: [UInt8], calendar: ObjectID, _ header: LogRecordHeader, _ txn: inout WriteTransaction
  ) throws {
    try txn.put(
      StoredObject.encode(header: header, live: false, calendar: calendar, state: []), forKey: key, in: objects)
  }

  /// The identifiers of the live items of `kind` in the calendar `calendar`, in key order.
  func items(_ kind: ObjectKind, inCalendar calendar: ObjectID, in txn: borrowing ReadTransaction) throws -> [ObjectID]
  {
    let prefix = calendar.bytes + [kind.rawValue]
    return try txn.withCursor(on: byCalendar) { try $0.keys(withPrefix: prefix) }.map {
      ObjectID(bytes: $0[17...])!
    }
  }

  /// The stored state of an object, live or removed; `nil` if it never existed.
  func state(_ kind: ObjectKind, _ id: ObjectID, in txn: borrowing WriteTransaction) throws -> StoredObject? {
    try txn.withValue(forKey: kind.key(id), in: objects) { try StoredObject(decoding: $0) }
  }

  /// The stored state of an object, live or removed; `nil` if it never existed.
  func state(_ kind: ObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction) throws -> StoredObject? {
    try txn.withValue(forKey: kind.key(id), in: objects) { try StoredObject(decoding: $0) }
  }
}

/// The kinds of object the projection holds.
enum ObjectKind: UInt8, Sendable {
  case calendar = 1
  case event, reminder

  func key(_ id: ObjectID) -> [UInt8] { [rawValue] + id.bytes }
}

/// One entry of the `objects` database.
struct StoredObject: Sendable {
  let version: LogPosition
  let modified: Timestamp
  let isLive: Bool
  let calendarID: ObjectID
  let state: PayloadReader

  static func encode(header: LogRecordHeader, live: Bool, calendar: ObjectID, state: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(33 + state.count)
    append(
      position: header.position.rawValue, timestamp: header.timestamp.rawValue, live: live, calendar: calendar,
      state: state, to: &out)
    return out
  }

  /// Appends the stored form of an object changed by the record at `position` and `timestamp`.
  static func append(
    position: UInt64, timestamp: Int64, live: Bool, calendar: ObjectID, state: some Collection<UInt8>,
    to out: inout [UInt8]
  ) {
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: headerLength))
    out.withUnsafeMutableBytes { bytes in
      writeHeader(
        position: position, timestamp: timestamp, live: live, calendar: calendar,
        to: UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
    }
    out.append(contentsOf: state)
  }

  /// The bytes before the state: version (8) ‖ modified (8) ‖ live (1) ‖ calendar (16).
  static let headerLength = 33

  /// Writes the ``headerLength`` bytes before the state at the start of `bytes` (a bulk load writes
  /// the value in place, in the page LMDB reserves for it).
  static func writeHeader(
    position: UInt64, timestamp: Int64, live: Bool, calendar: ObjectID, to bytes: UnsafeMutableRawBufferPointer
  ) {
    bytes.storeBytes(of: position.bigEndian, toByteOffset: 0, as: UInt64.self)
    bytes.storeBytes(of: UInt64(bitPattern: timestamp).bigEndian, toByteOffset: 8, as: UInt64.self)
    bytes[16] = live ? 1 : 0
    calendar.store(in: bytes, at: 17)
  }

  init(decoding bytes: RawSpan) throws {
    guard bytes.byteCount >= 33 else { throw StoreError.malformedPayload("a stored object is truncated") }
    let all = Array(copying: bytes)
    version = LogPosition(RecordCodec.readBigEndian(all[0..<8]))
    modified = Timestamp(rawValue: Int64(bitPattern: RecordCodec.readBigEndian(all[8..<16])))
    isLive = all[16] == 1
    calendarID = ObjectID(bytes: all[17..<33])!
    state = try PayloadReader(Payload(bytes: Array(all[33...])))
  }
}
