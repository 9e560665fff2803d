internal import LMDB

/// Rebuilds the `objects` projection from the whole log: keeps the last change of every object (its
/// version, time, calendar and external identifier's digest: the state stays in the log), resolves
/// at the end the items that a calendar's removal took with it, and writes the three databases in
/// key order.
///
/// It leaves the bytes ``ObjectProjection`` leaves record by record. `objects.byCalendar` and
/// `objects.byExternalID` list exactly the live items, so they are derived from the final states;
/// an item is removed with its calendar when the first removal of that calendar follows its last
/// save (the tombstone carries that removal's position and time, as the projection writes it).
struct ObjectBulkLoader: ProjectionBulkLoader {
  let projection: ObjectProjection

  /// `type ‖ id`: the key of `objects`.
  private struct Key: Comparable, Hashable {
    let kind: UInt8
    let id: ObjectID

    static func < (a: Key, b: Key) -> Bool { (a.kind, a.id) < (b.kind, b.id) }
  }

  /// The last change of an object.
  private struct Stored {
    var position: UInt64
    var timestamp: Int64
    var calendar: ObjectID
    /// The digest of its external identifier (``ObjectProjection/externalDigest(_:)``), when
    /// it is a live item with one: taken while the state is read, in log order; for an item removed
    /// by a removal of its own, its last save.
    var trailer: StoredObject.Trailer
    /// Last, beside the tag of ``trailer``: 56 bytes a change instead of 64.
    var isLive: Bool

    var external: StoredObject.ExternalDigest? { trailer.external }
  }

  private var slots = ObjectSlots()
  private var keys: [Key] = []
  private var stored: [Stored] = []
  /// The removals of each calendar, in log order: `(position, timestamp)`.
  private var removals: [ObjectID: [(UInt64, Int64)]] = [:]
  /// The digest of the resource name of each item whose last save gave it one (few: only items a
  /// CalDAV client named other than by their `UID`), kept aside so that every other change stays
  /// small.
  private var names: [Key: StoredObject.ExternalDigest] = [:]

  init(_ projection: ObjectProjection) { self.projection = projection }

  mutating func reserve(records: Int, bytes: Int) {
    HugePages.reserve(&keys, capacity: records)
    HugePages.reserve(&stored, capacity: records)
    // A table that grows rehashes every key each time it doubles.
    slots = ObjectSlots(capacity: records)
  }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    let fields = try PayloadFieldIndex(payload)
    switch header.kind {
    case .sourceSaved, .sourceRemoved:
      let id = try fields.requiredObjectID(1, in: payload)
      set(Key(kind: ObjectKind.source.rawValue, id: id), header, live: header.kind == .sourceSaved, calendar: id, .none)
    case .calendarSaved:
      let id = try fields.requiredObjectID(1, in: payload)
      set(Key(kind: ObjectKind.calendar.rawValue, id: id), header, live: true, calendar: id, .none)
    case .calendarRemoved:
      let id = try fields.requiredObjectID(1, in: payload)
      removals[id, default: []].append((header.position.rawValue, header.timestamp.rawValue))
      set(Key(kind: ObjectKind.calendar.rawValue, id: id), header, live: false, calendar: id, .none)
    case .eventSaved, .reminderSaved:
      let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
      let id = try fields.requiredObjectID(1, in: payload)
      slots.prefetch(kind.rawValue, id)
      let calendar = try fields.requiredObjectID(2, in: payload)
      var digests: (external: StoredObject.ExternalDigest?, name: StoredObject.ExternalDigest?) = (nil, nil)
      if let state = fields[5] { digests = try Self.digests(in: state, of: payload) }
      let key = Key(kind: kind.rawValue, id: id)
      if let name = digests.name {
        names[key] = name
      } else if !names.isEmpty {
        names[key] = nil
      }
      set(key, header, live: true, calendar: calendar, digests.external.map { .external($0) } ?? .none)
    case .eventRemoved, .reminderRemoved:
      let kind: ObjectKind = header.kind == .eventRemoved ? .event : .reminder
      let key = Key(kind: kind.rawValue, id: try fields.requiredObjectID(1, in: payload))
      let previous = slots.slot(of: key.kind, key.id).map { stored[$0] }
      let calendar = try previous?.calendar ?? fields.requiredObjectID(2, in: payload)
      let trailer: StoredObject.Trailer = previous.map { $0.isLive ? .lastSave($0.position) : .none } ?? .none
      if !names.isEmpty { names[key] = nil }
      set(key, header, live: false, calendar: calendar, trailer)
    default:
      break
    }
  }

  /// The digests of the external identifier (field 1) and of the resource name (field 22), each
  /// checked as UTF-8, of the state in `range` of `payload`.
  private static func digests(
    in range: Range<Int>, of payload: RawSpan
  ) throws(StoreError) -> (external: StoredObject.ExternalDigest?, name: StoredObject.ExternalDigest?) {
    var external: Range<Int>?
    var name: Range<Int>?
    let failure: StoreError? = payload.withUnsafeBytes { buffer in
      do throws(StoreError) {
        try PayloadSpan.scan(buffer, range) { span in
          if span.tag == 1, external == nil { external = span.range }
          if span.tag == 22, name == nil { name = span.range }
        }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    func digest(_ field: Range<Int>?, _ tag: Int) throws(StoreError) -> StoredObject.ExternalDigest? {
      guard let field else { return nil }
      let digest = payload.withUnsafeBytes { buffer -> StoredObject.ExternalDigest? in
        let text = UnsafeRawBufferPointer(rebasing: buffer[field])
        guard (try? UTF8Span(validating: text.assumingMemoryBound(to: UInt8.self).span)) != nil else { return nil }
        return ObjectProjection.externalDigest(text)
      }
      guard let digest else { throw .malformedPayload("field \(tag) is not UTF-8 text") }
      return digest
    }
    return (try digest(external, 1), try digest(name, 22))
  }

  private mutating func set(
    _ key: Key, _ header: LogRecordHeader, live: Bool, calendar: ObjectID, _ trailer: StoredObject.Trailer
  ) {
    let change = Stored(
      position: header.position.rawValue, timestamp: header.timestamp.rawValue, calendar: calendar,
      trailer: trailer, isLive: live)
    let (slot, isNew) = slots.slot(for: key.kind, key.id, next: stored.count)
    if isNew {
      keys.append(key)
      stored.append(change)
    } else {
      stored[slot] = change
    }
  }

  // The output in key order (``keys`` and ``stored`` too, once prepared).
  /// The live items by calendar, as places in ``keys`` and ``stored`` (ascending in each calendar).
  private var byCalendar: [UInt32] = []
  /// The live items with an external identifier by calendar and kind (each group's calendar, kind
  /// and end in ``byExternalID``; the kind with its high bit set for the entries by resource name),
  /// then by ``ObjectProjection/externalDigest(_:)`` (as two numbers, so that they sort like its
  /// bytes) and identifier.
  private var externalGroups: [(calendar: ObjectID, kind: UInt8, end: Int)] = []
  private var byExternalID: [(digest: (UInt64, UInt64), id: ObjectID)] = []
  /// How many entries are written: `objects`, then `objects.byCalendar`, then `objects.byExternalID`.
  private var written = 0

  mutating func prepare() throws {
    slots = ObjectSlots()
    for slot in stored.indices where !removals.isEmpty && isLiveItem(slot) {
      // Taken with its calendar when that calendar was removed after the item's last save.
      guard let times = removals[stored[slot].calendar],
        let removal = times.first(where: { $0.0 > stored[slot].position })
      else { continue }
      stored[slot] = Stored(
        position: removal.0, timestamp: removal.1, calendar: stored[slot].calendar, trailer: .none, isLive: false)
    }
    removals = [:]
    // Then both arrays are put in key order once, so that what follows reads them in sequence.
    (keys, stored) = Self.inKeyOrder(keys, stored)
    // Both indexes list the live items, first by calendar: a stable counting sort of them by
    // calendar (and kind) keeps the order of `objects` within each, without comparing again. The
    // calendars are few: each item's is found by a binary search of them.
    var liveCalendars = Set<ObjectID>()
    for index in keys.indices where isLiveItem(index) { liveCalendars.insert(stored[index].calendar) }
    let calendars = liveCalendars.sorted()
    var ranks = [Int32](repeating: -1, count: keys.count)
    var (liveCount, externalCount) = (0, 0)
    for index in keys.indices where isLiveItem(index) {
      var (low, high) = (0, calendars.count - 1)
      while low < high {
        let middle = (low + high) / 2
        if calendars[middle] < stored[index].calendar { low = middle + 1 } else { high = middle }
      }
      ranks[index] = Int32(low)
      liveCount += 1
      if stored[index].external != nil { externalCount += name(of: index) == nil ? 1 : 2 }
    }
    var calendarStarts = [Int](repeating: 0, count: calendars.count + 1)
    for rank in ranks where rank >= 0 { calendarStarts[Int(rank) + 1] += 1 }
    for rank in calendars.indices { calendarStarts[rank + 1] += calendarStarts[rank] }
    byCalendar = [UInt32](unsafeUninitializedCapacity: liveCount) { buffer, count in
      for (index, rank) in ranks.enumerated() where rank >= 0 {
        buffer[calendarStarts[Int(rank)]] = UInt32(index)
        calendarStarts[Int(rank)] += 1
      }
      count = liveCount
    }
    func group(_ index: Int, named: Bool = false) -> Int {
      Int(ranks[index]) << 8 | Int(keys[index].kind) | (named ? 0x80 : 0)
    }
    let groups = calendars.count << 8
    var groupStarts = [Int](repeating: 0, count: groups + 1)
    for index in keys.indices where ranks[index] >= 0 && stored[index].external != nil {
      groupStarts[group(index) + 1] += 1
      if name(of: index) != nil { groupStarts[group(index, named: true) + 1] += 1 }
    }
    for group in 0..<groups { groupStarts[group + 1] += groupStarts[group] }
    externalGroups = []
    for group in 0..<groups where groupStarts[group + 1] > groupStarts[group] {
      externalGroups.append((calendars[group >> 8], UInt8(group & 0xFF), groupStarts[group + 1]))
    }
    byExternalID = .init(unsafeUninitializedCapacity: externalCount) { buffer, count in
      for index in keys.indices where ranks[index] >= 0 {
        guard let digest = stored[index].external else { continue }
        (buffer.baseAddress! + groupStarts[group(index)]).initialize(to: (digest, keys[index].id))
        groupStarts[group(index)] += 1
        if let name = name(of: index) {
          (buffer.baseAddress! + groupStarts[group(index, named: true)]).initialize(to: (name, keys[index].id))
          groupStarts[group(index, named: true)] += 1
        }
      }
      count = externalCount
    }
    // Then by digest within each calendar and kind.
    var first = 0
    for group in externalGroups {
      byExternalID[first..<group.end].sort { ($0.digest.0, $0.digest.1, $0.id) < ($1.digest.0, $1.digest.1, $1.id) }
      first = group.end
    }
  }

  /// The digest of the resource name of the live item at `index` of ``keys`` and ``stored``, when
  /// it has one.
  private func name(of index: Int) -> StoredObject.ExternalDigest? {
    names.isEmpty || !stored[index].isLive || stored[index].external == nil ? nil : names[keys[index]]
  }

  /// Whether the object at `index` of ``keys`` and ``stored`` is a live event or reminder.
  private func isLiveItem(_ index: Int) -> Bool {
    stored[index].isLive
      && (keys[index].kind == ObjectKind.event.rawValue || keys[index].kind == ObjectKind.reminder.rawValue)
  }

  /// `keys` and `stored` in key order. Identifiers are mostly random, so a counting sort on the
  /// kind and the identifier's first 16 bits leaves buckets of a few keys, each then sorted by
  /// comparison (sorting a million keys by comparison alone took twice as long). Both arrays are
  /// scattered straight to their places (through a list of slots, the permuted copies took as much
  /// fresh memory again, and a rebuild's page faults cost more than its sorting).
  private static func inKeyOrder(_ keys: [Key], _ stored: [Stored]) -> ([Key], [Stored]) {
    var present = [Bool](repeating: false, count: 256)
    for key in keys { present[Int(key.kind)] = true }
    var rank = [Int](repeating: 0, count: 256)
    var kinds = 0
    for kind in 0..<256 where present[kind] {
      rank[kind] = kinds
      kinds += 1
    }
    func bucket(_ key: Key) -> Int { rank[Int(key.kind)] << 16 | Int(key.id.high >> 48) }
    var starts = [Int](repeating: 0, count: (kinds << 16) + 1)
    for key in keys { starts[bucket(key) + 1] += 1 }
    for index in 0..<(kinds << 16) { starts[index + 1] += starts[index] }
    var next = starts
    var sortedKeys = [Key](unsafeUninitializedCapacity: keys.count) { buffer, count in
      HugePages.advise(buffer)
      for key in keys {
        let home = bucket(key)
        (buffer.baseAddress! + next[home]).initialize(to: key)
        next[home] += 1
      }
      count = keys.count
    }
    next = starts
    var sortedStored = [Stored](unsafeUninitializedCapacity: stored.count) { buffer, count in
      HugePages.advise(buffer)
      for (slot, key) in keys.enumerated() {
        let home = bucket(key)
        (buffer.baseAddress! + next[home]).initialize(to: stored[slot])
        next[home] += 1
      }
      count = stored.count
    }
    var order: [Int] = []
    var moved: [(Key, Stored)] = []
    for index in 0..<(kinds << 16) where starts[index + 1] - starts[index] > 1 {
      let bucket = starts[index]..<starts[index + 1]
      order.removeAll(keepingCapacity: true)
      order.append(contentsOf: bucket)
      order.sort { sortedKeys[$0] < sortedKeys[$1] }
      moved.removeAll(keepingCapacity: true)
      for place in order { moved.append((sortedKeys[place], sortedStored[place])) }
      for (place, entry) in zip(bucket, moved) { (sortedKeys[place], sortedStored[place]) = entry }
    }
    return (sortedKeys, sortedStored)
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
          for index in byCalendar[done..<end] {
            let (object, objectKey) = (stored[Int(index)], keys[Int(index)])
            object.calendar.store(in: key, at: 0)
            key[16] = objectKey.kind
            objectKey.id.store(in: key, at: 17)
            try cursor.put(
              ObjectProjection.versionValue(LogPosition(object.position)),
              forKey: UnsafeRawBufferPointer(rebasing: key[..<33]), options: .append)
          }
        default:
          var group = externalGroups.firstIndex { $0.end > done }!
          for index in done..<end {
            while externalGroups[group].end <= index { group += 1 }
            let entry = byExternalID[index]
            externalGroups[group].calendar.store(in: key, at: 0)
            key[16] = externalGroups[group].kind
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

  /// Appends `objects` entries `range`: `type ‖ id` → a ``StoredObject`` entry.
  private func writeObjects(
    _ range: Range<Int>, _ key: UnsafeMutableRawBufferPointer, _ cursor: inout Cursor
  ) throws {
    for index in range {
      let object = stored[index]
      var trailer = object.trailer
      if let name = name(of: index), let external = object.external { trailer = .named(external, name: name) }
      key[0] = keys[index].kind
      keys[index].id.store(in: key, at: 1)
      try cursor.put(
        reserving: StoredObject.length(trailer),
        forKey: UnsafeRawBufferPointer(rebasing: key[..<17]), options: .append
      ) { value in
        StoredObject.write(
          position: object.position, timestamp: object.timestamp, live: object.isLive, calendar: object.calendar,
          trailer: trailer, to: value)
      }
    }
  }
}
