internal import LMDB

/// Rebuilds the `objects` projection from the whole log: keeps the last change of every object
/// (its state bytes in one arena, not an allocation each), resolves at the end the items that a
/// calendar's removal took with it, and writes the three databases in key order.
///
/// It leaves the bytes ``ObjectProjection`` leaves record by record. `objects.byCalendar` and
/// `objects.byExternalID` list exactly the live items, so they are derived from the final states;
/// an item is removed with its calendar when the first removal of that calendar follows its last
/// save (the tombstone carries that removal's position and time, as the projection writes it).
struct ObjectBulkLoader: ProjectionBulkLoader {
  let projection: ObjectProjection

  /// `type ‖ id`: the key of `objects`.
  private struct Key: Hashable, Comparable {
    let kind: UInt8
    let id: ObjectID

    static func < (a: Key, b: Key) -> Bool { (a.kind, a.id) < (b.kind, b.id) }
  }

  /// The last change of an object.
  private struct Stored {
    var position: UInt64
    var timestamp: Int64
    var isLive: Bool
    var calendar: ObjectID
    /// Its state in ``arena`` (empty for a tombstone).
    var state: Range<Int>
    /// Its external identifier in ``arena``, when it is a live item with one.
    var external: Range<Int>?
  }

  private var slots: [Key: Int] = [:]
  private var keys: [Key] = []
  private var stored: [Stored] = []
  private var arena: [UInt8] = []
  /// The removals of each calendar, in log order: `(position, timestamp)`.
  private var removals: [ObjectID: [(UInt64, Int64)]] = [:]

  init(_ projection: ObjectProjection) { self.projection = projection }

  mutating func reserve(records: Int, bytes: Int) {
    arena.reserveCapacity(bytes)
    keys.reserveCapacity(records)
    stored.reserveCapacity(records)
    // A dictionary that grows rehashes every key each time it doubles.
    slots.reserveCapacity(records)
  }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    let fields = try PayloadFieldIndex(payload)
    switch header.kind {
    case .calendarSaved:
      let id = try fields.requiredObjectID(1, in: payload)
      let state = keep(fields[5], of: payload)
      set(Key(kind: ObjectKind.calendar.rawValue, id: id), header, live: true, calendar: id, state: state, nil)
    case .calendarRemoved:
      let id = try fields.requiredObjectID(1, in: payload)
      removals[id, default: []].append((header.position.rawValue, header.timestamp.rawValue))
      set(Key(kind: ObjectKind.calendar.rawValue, id: id), header, live: false, calendar: id, state: 0..<0, nil)
    case .eventSaved, .reminderSaved:
      let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
      let id = try fields.requiredObjectID(1, in: payload)
      let calendar = try fields.requiredObjectID(2, in: payload)
      let state = keep(fields[5], of: payload)
      let external = try externalID(in: state)
      set(Key(kind: kind.rawValue, id: id), header, live: true, calendar: calendar, state: state, external)
    case .eventRemoved, .reminderRemoved:
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      let key = Key(kind: kind.rawValue, id: try fields.requiredObjectID(1, in: payload))
      let calendar = try slots[key].map { stored[$0].calendar } ?? fields.requiredObjectID(2, in: payload)
      set(key, header, live: false, calendar: calendar, state: 0..<0, nil)
    default:
      break
    }
  }

  /// Copies `range` of `payload` into the arena and returns where it is there.
  private mutating func keep(_ range: Range<Int>?, of payload: RawSpan) -> Range<Int> {
    guard let range, !range.isEmpty else { return arena.count..<arena.count }
    let start = arena.count
    payload.extracting(range).withUnsafeBytes { arena.append(contentsOf: $0) }
    return start..<arena.count
  }

  /// The external identifier (field 1) of the state in `range` of the arena, checked as UTF-8.
  private func externalID(in range: Range<Int>) throws(StoreError) -> Range<Int>? {
    var found: Range<Int>?
    let failure: StoreError? = arena.withUnsafeBytes { buffer in
      do throws(StoreError) {
        try PayloadSpan.scan(buffer, range) { span in
          if span.tag == 1, found == nil { found = span.range }
        }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    guard let found else { return nil }
    do {
      _ = try UTF8Span(validating: arena.span.extracting(found))
    } catch {
      throw .malformedPayload("field 1 is not UTF-8 text")
    }
    return found
  }

  private mutating func set(
    _ key: Key, _ header: LogRecordHeader, live: Bool, calendar: ObjectID, state: Range<Int>, _ external: Range<Int>?
  ) {
    let change = Stored(
      position: header.position.rawValue, timestamp: header.timestamp.rawValue, isLive: live, calendar: calendar,
      state: state, external: external)
    if let slot = slots[key] {
      stored[slot] = change
    } else {
      slots[key] = stored.count
      keys.append(key)
      stored.append(change)
    }
  }

  // The output in key order.
  private var order: [Int] = []
  private var byCalendar: [(calendar: ObjectID, key: Key)] = []
  /// The live items with an external identifier, by ``ObjectProjection/externalDigest(_:)`` (as
  /// two numbers, so that they sort like its bytes).
  private var byExternalID: [(calendar: ObjectID, kind: UInt8, digest: (UInt64, UInt64), id: ObjectID)] = []
  /// How many entries are written: `objects`, then `objects.byCalendar`, then `objects.byExternalID`.
  private var written = 0

  mutating func prepare() throws {
    slots = [:]
    let calendarKind = ObjectKind.calendar.rawValue
    for slot in stored.indices where stored[slot].isLive && keys[slot].kind != calendarKind {
      // Taken with its calendar when that calendar was removed after the item's last save.
      guard let times = removals[stored[slot].calendar],
        let removal = times.first(where: { $0.0 > stored[slot].position })
      else { continue }
      stored[slot] = Stored(
        position: removal.0, timestamp: removal.1, isLive: false, calendar: stored[slot].calendar, state: 0..<0,
        external: nil)
    }
    removals = [:]
    // Sorted by value: comparisons through `keys` would each read two random places of it.
    order = keys.enumerated().map { ($1, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    for slot in order where stored[slot].isLive && keys[slot].kind != calendarKind {
      let key = keys[slot]
      byCalendar.append((stored[slot].calendar, key))
      if let external = stored[slot].external {
        let digest = ObjectProjection.externalDigest(arena[external])
        byExternalID.append(
          (
            stored[slot].calendar, key.kind,
            (RecordCodec.readBigEndian(digest[0..<8]), RecordCodec.readBigEndian(digest[8..<16])),
            key.id
          ))
      }
    }
    byCalendar.sort { ($0.calendar, $0.key) < ($1.calendar, $1.key) }
    byExternalID.sort {
      ($0.calendar, $0.kind, $0.digest.0, $0.digest.1, $0.id) < ($1.calendar, $1.kind, $1.digest.0, $1.digest.1, $1.id)
    }
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let databases = [
      (projection.objects, order.count), (projection.byCalendar, byCalendar.count),
      (projection.byExternalID, byExternalID.count),
    ]
    var budget = limit
    var key: [UInt8] = []
    var value: [UInt8] = []
    var before = 0
    for (phase, (database, count)) in databases.enumerated() {
      let done = max(0, written - before)
      before += count
      guard budget > 0, done < count else { continue }
      let end = min(count, done + budget)
      try txn.withCursor(on: database) { cursor in
        for index in done..<end {
          entry(phase, index, key: &key, value: &value)
          try cursor.put(value, forKey: key, options: .append)
        }
      }
      budget -= end - done
      written += end - done
    }
    return written == before
  }

  /// Key and value of entry `index` of output `phase` (0: `objects`, 1: `objects.byCalendar`,
  /// 2: `objects.byExternalID`).
  private func entry(_ phase: Int, _ index: Int, key: inout [UInt8], value: inout [UInt8]) {
    key.removeAll(keepingCapacity: true)
    value.removeAll(keepingCapacity: true)
    switch phase {
    case 0:
      let slot = order[index]
      let object = stored[slot]
      key.append(keys[slot].kind)
      keys[slot].id.append(to: &key)
      StoredObject.append(
        position: object.position, timestamp: object.timestamp, live: object.isLive, calendar: object.calendar,
        state: arena[object.state], to: &value)
    case 1:
      let entry = byCalendar[index]
      entry.calendar.append(to: &key)
      key.append(entry.key.kind)
      entry.key.id.append(to: &key)
    default:
      let entry = byExternalID[index]
      entry.calendar.append(to: &key)
      key.append(entry.kind)
      RecordCodec.appendBigEndian(entry.digest.0, to: &key)
      RecordCodec.appendBigEndian(entry.digest.1, to: &key)
      entry.id.append(to: &key)
    }
  }
}
