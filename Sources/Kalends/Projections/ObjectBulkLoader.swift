internal import CPrefetch
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
  private struct Key: Comparable {
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
    /// The digest of its external identifier (``ObjectProjection/externalDigest(_:)``), when
    /// it is a live item with one: taken while the state is read, in log order.
    var external: (UInt64, UInt64)?
  }

  private var slots = ObjectSlots()
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
    // A table that grows rehashes every key each time it doubles.
    slots = ObjectSlots(capacity: records)
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
      let external = try externalDigest(in: state)
      set(Key(kind: kind.rawValue, id: id), header, live: true, calendar: calendar, state: state, external)
    case .eventRemoved, .reminderRemoved:
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      let key = Key(kind: kind.rawValue, id: try fields.requiredObjectID(1, in: payload))
      let calendar =
        try slots.slot(of: key.kind, key.id).map { stored[$0].calendar } ?? fields.requiredObjectID(2, in: payload)
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

  /// The digest of the external identifier (field 1) of the state in `range` of the arena, checked
  /// as UTF-8.
  private func externalDigest(in range: Range<Int>) throws(StoreError) -> (UInt64, UInt64)? {
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
    return arena.withUnsafeBytes { ObjectProjection.externalDigest(UnsafeRawBufferPointer(rebasing: $0[found])) }
  }

  private mutating func set(
    _ key: Key, _ header: LogRecordHeader, live: Bool, calendar: ObjectID, state: Range<Int>,
    _ external: (UInt64, UInt64)?
  ) {
    let change = Stored(
      position: header.position.rawValue, timestamp: header.timestamp.rawValue, isLive: live, calendar: calendar,
      state: state, external: external)
    let (slot, isNew) = slots.slot(for: key.kind, key.id, next: stored.count)
    if isNew {
      keys.append(key)
      stored.append(change)
    } else {
      stored[slot] = change
    }
  }

  // The output in key order (``keys`` and ``stored`` too, once prepared).
  private var byCalendar: [(calendar: ObjectID, key: Key)] = []
  /// The live items with an external identifier, by ``ObjectProjection/externalDigest(_:)`` (as
  /// two numbers, so that they sort like its bytes).
  private var byExternalID: [(calendar: ObjectID, kind: UInt8, digest: (UInt64, UInt64), id: ObjectID)] = []
  /// How many entries are written: `objects`, then `objects.byCalendar`, then `objects.byExternalID`.
  private var written = 0

  mutating func prepare() throws {
    slots = ObjectSlots()
    let calendarKind = ObjectKind.calendar.rawValue
    for slot in stored.indices where !removals.isEmpty && stored[slot].isLive && keys[slot].kind != calendarKind {
      // Taken with its calendar when that calendar was removed after the item's last save.
      guard let times = removals[stored[slot].calendar],
        let removal = times.first(where: { $0.0 > stored[slot].position })
      else { continue }
      stored[slot] = Stored(
        position: removal.0, timestamp: removal.1, isLive: false, calendar: stored[slot].calendar, state: 0..<0,
        external: nil)
    }
    removals = [:]
    // Then both arrays are put in key order once, so that what follows reads them in sequence.
    let order = Self.keyOrder(keys)
    keys = order.map { keys[$0] }
    stored = order.map { stored[$0] }
    // Both indexes list the live items, first by calendar: a stable counting sort of them by
    // calendar (and kind) keeps the order of `objects` within each, without comparing again.
    let live = keys.indices.filter { stored[$0].isLive && keys[$0].kind != calendarKind }
    let calendars = Set(live.map { stored[$0].calendar }).sorted()
    let ranks = Dictionary(uniqueKeysWithValues: calendars.enumerated().map { ($1, $0) })
    let rank = live.map { ranks[stored[$0].calendar]! }
    byCalendar = Self.stablyBucketed(live.indices, buckets: calendars.count, by: { rank[$0] }).map {
      (stored[live[$0]].calendar, keys[live[$0]])
    }
    let external = live.indices.filter { stored[live[$0]].external != nil }
    let grouped = Self.stablyBucketed(external, buckets: calendars.count << 8) {
      rank[$0] << 8 | Int(keys[live[$0]].kind)
    }
    byExternalID = grouped.map { index in
      let slot = live[index]
      return (stored[slot].calendar, keys[slot].kind, stored[slot].external!, keys[slot].id)
    }
    // Then by digest within each calendar and kind.
    var first = 0
    while first < byExternalID.count {
      var end = first + 1
      while end < byExternalID.count, byExternalID[end].calendar == byExternalID[first].calendar,
        byExternalID[end].kind == byExternalID[first].kind
      {
        end += 1
      }
      byExternalID[first..<end].sort { ($0.digest.0, $0.digest.1, $0.id) < ($1.digest.0, $1.digest.1, $1.id) }
      first = end
    }
  }

  /// The slots of `keys` in key order. Identifiers are mostly random, so a counting sort on the
  /// kind and the identifier's first 16 bits leaves buckets of a few keys, each then sorted by
  /// comparison (sorting a million keys by comparison alone took twice as long); the keys are
  /// sorted by value, since comparisons through `keys` would each read two random places of it.
  private static func keyOrder(_ keys: [Key]) -> [Int] {
    var present = [Bool](repeating: false, count: 256)
    for key in keys { present[Int(key.kind)] = true }
    var rank = [Int](repeating: 0, count: 256)
    var kinds = 0
    for kind in 0..<256 where present[kind] {
      rank[kind] = kinds
      kinds += 1
    }
    func bucket(_ key: Key) -> Int { rank[Int(key.kind)] << 16 | Int(key.id.high >> 48) }
    // Scattered by value (a counting sort through `stablyBucketed` and indices took three times as
    // long: every bucket read `keys` at random once more).
    var starts = [Int](repeating: 0, count: (kinds << 16) + 1)
    for key in keys { starts[bucket(key) + 1] += 1 }
    for index in 0..<(kinds << 16) { starts[index + 1] += starts[index] }
    var next = starts
    var sorted = [(key: Key, slot: Int)](unsafeUninitializedCapacity: keys.count) { buffer, count in
      for (slot, key) in keys.enumerated() {
        let home = bucket(key)
        (buffer.baseAddress! + next[home]).initialize(to: (key, slot))
        next[home] += 1
      }
      count = keys.count
    }
    for index in 0..<(kinds << 16) where starts[index + 1] - starts[index] > 1 {
      sorted[starts[index]..<starts[index + 1]].sort { $0.key < $1.key }
    }
    return sorted.map(\.slot)
  }

  /// `elements` in the order of their bucket (`0..<buckets`), in their own order within one.
  private static func stablyBucketed<C: Collection<Int>>(
    _ elements: C, buckets: Int, by bucket: (Int) -> Int
  ) -> [Int] {
    var starts = [Int](repeating: 0, count: buckets + 1)
    for element in elements { starts[bucket(element) + 1] += 1 }
    for index in 0..<buckets { starts[index + 1] += starts[index] }
    var result = [Int](repeating: 0, count: elements.count)
    for element in elements {
      let home = bucket(element)
      result[starts[home]] = element
      starts[home] += 1
    }
    return result
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let outputs = [
      (projection.objects, keys.count), (projection.byCalendar, byCalendar.count),
      (projection.byExternalID, byExternalID.count),
    ]
    var budget = limit
    var before = 0
    for (phase, (database, count)) in outputs.enumerated() {
      let done = max(0, written - before)
      before += count
      guard budget > 0, done < count else { continue }
      let end = min(count, done + budget)
      try txn.withCursor(on: database) { cursor in
        // Keys are at most 49 bytes (`objects.byExternalID`), written in place.
        let key = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
        defer { key.deallocate() }
        switch phase {
        case 0: try writeObjects(done..<end, key, &cursor)
        case 1:
          for entry in byCalendar[done..<end] {
            entry.calendar.store(in: key, at: 0)
            key[16] = entry.key.kind
            entry.key.id.store(in: key, at: 17)
            try cursor.put([UInt8](), forKey: UnsafeRawBufferPointer(rebasing: key[..<33]), options: .append)
          }
        default:
          for entry in byExternalID[done..<end] {
            entry.calendar.store(in: key, at: 0)
            key[16] = entry.kind
            key.storeBytes(of: entry.digest.0.bigEndian, toByteOffset: 17, as: UInt64.self)
            key.storeBytes(of: entry.digest.1.bigEndian, toByteOffset: 25, as: UInt64.self)
            entry.id.store(in: key, at: 33)
            try cursor.put([UInt8](), forKey: UnsafeRawBufferPointer(rebasing: key[..<49]), options: .append)
          }
        }
      }
      budget -= end - done
      written += end - done
    }
    return written == before
  }

  /// How many entries ahead of the one written a state is asked into the cache.
  static let prefetchDistance = 8

  /// Asks for the first bytes of `range` of `arena` to be brought into the cache.
  static func prefetch(_ range: Range<Int>, in arena: UnsafeRawBufferPointer) {
    guard !range.isEmpty, let base = arena.baseAddress else { return }
    for offset in stride(from: range.lowerBound, to: min(range.upperBound, range.lowerBound + 256), by: 64) {
      kalends_prefetch(base + offset)
    }
  }

  /// Appends `objects` entries `range`: `type ‖ id` → ``StoredObject``.
  private func writeObjects(
    _ range: Range<Int>, _ key: UnsafeMutableRawBufferPointer, _ cursor: inout Cursor
  ) throws {
    var value: [UInt8] = []
    try arena.withUnsafeBytes { arena in
      for index in range {
        // The states are in log order, read here in key order: each would be a cache miss.
        if index + Self.prefetchDistance < range.upperBound {
          Self.prefetch(stored[index + Self.prefetchDistance].state, in: arena)
        }
        let object = stored[index]
        key[0] = keys[index].kind
        keys[index].id.store(in: key, at: 1)
        value.removeAll(keepingCapacity: true)
        StoredObject.append(
          position: object.position, timestamp: object.timestamp, live: object.isLive, calendar: object.calendar,
          state: UnsafeRawBufferPointer(rebasing: arena[object.state]), to: &value)
        try cursor.put(value, forKey: UnsafeRawBufferPointer(rebasing: key[..<17]), options: .append)
      }
    }
  }
}
