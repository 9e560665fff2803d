internal import LMDB

/// Rebuilds the `objects` projection from the whole log: applies every record to in-memory maps
/// with the projection's own rules (``ObjectProjection``), then writes the three databases in key
/// order.
struct ObjectBulkLoader: ProjectionBulkLoader {
  let projection: ObjectProjection

  /// `type ‖ id`: the key of `objects`.
  private struct Key: Hashable, Comparable {
    let kind: UInt8
    let id: ObjectID

    static func < (a: Key, b: Key) -> Bool { (a.kind, a.id) < (b.kind, b.id) }
  }

  /// The stored value of an object, with what later records need of it.
  private struct Stored {
    let value: [UInt8]
    let isLive: Bool
    let calendar: ObjectID
    /// The external identifier of a live item's state.
    let external: String?
  }

  private var objects: [Key: Stored] = [:]
  /// `objects.byCalendar` by calendar.
  private var byCalendar: [ObjectID: Set<Key>] = [:]
  /// `objects.byExternalID` by calendar: the keys after the calendar.
  private var byExternalID: [ObjectID: Set<[UInt8]>] = [:]

  init(_ projection: ObjectProjection) { self.projection = projection }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    switch header.kind {
    case .calendarSaved:
      let fields = try PayloadReader(bytes: payload)
      let id = try fields.requiredObjectID(1)
      put(Key(kind: ObjectKind.calendar.rawValue, id: id), calendar: id, state: fields.bytes(5) ?? [], nil, header)
    case .calendarRemoved:
      let id = try PayloadReader(bytes: payload).requiredObjectID(1)
      byExternalID[id] = nil
      for key in byCalendar.removeValue(forKey: id) ?? [] { tombstone(key, calendar: id, header) }
      tombstone(Key(kind: ObjectKind.calendar.rawValue, id: id), calendar: id, header)
    case .eventSaved, .reminderSaved:
      let fields = try PayloadReader(bytes: payload)
      let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let calendar = try fields.requiredObjectID(2)
      let key = Key(kind: kind.rawValue, id: id)
      if let previous = objects[key], previous.isLive {
        if previous.calendar != calendar { byCalendar[previous.calendar]?.remove(key) }
        removeExternalID(of: previous, kind, id)
      }
      let state = fields.bytes(5) ?? []
      let external = try PayloadReader(Payload(bytes: state)).string(1)
      put(key, calendar: calendar, state: state, external, header)
      byCalendar[calendar, default: []].insert(key)
      if let external {
        byExternalID[calendar, default: []].insert(Self.externalKey(calendar, kind, external, id))
      }
    case .eventRemoved, .reminderRemoved:
      let fields = try PayloadReader(bytes: payload)
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      let id = try fields.requiredObjectID(1)
      let key = Key(kind: kind.rawValue, id: id)
      let previous = objects[key]
      let calendar = try previous?.calendar ?? fields.requiredObjectID(2)
      byCalendar[calendar]?.remove(key)
      if let previous, previous.isLive { removeExternalID(of: previous, kind, id) }
      tombstone(key, calendar: calendar, header)
    default:
      break
    }
  }

  /// The `objects.byExternalID` key of `external` and `id`, without the leading calendar.
  private static func externalKey(_ calendar: ObjectID, _ kind: ObjectKind, _ external: String, _ id: ObjectID)
    -> [UInt8]
  {
    Array(ObjectProjection.externalKey(calendar, kind, external).dropFirst(16)) + id.bytes
  }

  private mutating func removeExternalID(of stored: Stored, _ kind: ObjectKind, _ id: ObjectID) {
    guard let external = stored.external else { return }
    byExternalID[stored.calendar]?.remove(Self.externalKey(stored.calendar, kind, external, id))
  }

  private mutating func put(
    _ key: Key, calendar: ObjectID, state: [UInt8], _ external: String?, _ header: LogRecordHeader
  ) {
    let value = StoredObject.encode(header: header, live: true, calendar: calendar, state: state)
    objects[key] = Stored(value: value, isLive: true, calendar: calendar, external: external)
  }

  private mutating func tombstone(_ key: Key, calendar: ObjectID, _ header: LogRecordHeader) {
    let value = StoredObject.encode(header: header, live: false, calendar: calendar, state: [])
    objects[key] = Stored(value: value, isLive: false, calendar: calendar, external: nil)
  }

  // The output in key order: `objects`, then `objects.byCalendar`, then `objects.byExternalID`.
  private var output: [(database: Database, key: [UInt8], value: [UInt8])] = []
  private var written = 0

  mutating func prepare() throws {
    output.reserveCapacity(objects.count * 3)
    for (key, stored) in objects.sorted(by: { $0.key < $1.key }) {
      output.append((projection.objects, [key.kind] + key.id.bytes, stored.value))
    }
    objects = [:]
    for (calendar, keys) in byCalendar.sorted(by: { $0.key < $1.key }) {
      for key in keys.sorted() {
        output.append((projection.byCalendar, calendar.bytes + [key.kind] + key.id.bytes, []))
      }
    }
    byCalendar = [:]
    for (calendar, keys) in byExternalID.sorted(by: { $0.key < $1.key }) {
      for key in keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        output.append((projection.byExternalID, calendar.bytes + key, []))
      }
    }
    byExternalID = [:]
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let end = min(output.count, written + limit)
    for entry in output[written..<end] {
      try txn.put(entry.value, forKey: entry.key, in: entry.database, options: .append)
    }
    written = end
    return written == output.count
  }
}
