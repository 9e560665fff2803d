internal import LMDB

/// Rebuilds the date-range index from the whole log: resolves the final state of every item first,
/// then indexes each live item once up to the final horizon and writes every database in key order.
///
/// It leaves the bytes the record-by-record projection leaves, because the index is a function of
/// the final states and the final horizon (open series are materialised up to every new horizon,
/// so an item owns exactly its instances before the current one), except for the longest durations
/// in `range.meta`, which only grow: they also count what replaced or removed items indexed before,
/// so the loader takes each retired state's instances into account when it is replaced or removed
/// (and forgets a calendar's when the calendar is removed, as the projection does).
struct RangeBulkLoader: ProjectionBulkLoader {
  let projection: RangeProjection

  /// The current state of a live item (decoded only when it is indexed or retired).
  private struct Item {
    let calendar: ObjectID
    let state: [UInt8]

    func event(_ id: ObjectID) throws -> Event {
      try ModelCodec.decodeEvent(
        id: id, calendarID: calendar, version: .none, modified: nil, PayloadReader(Payload(bytes: state)))
    }
  }

  /// A calendar, a clock and a duration class: one run of `range.instances`.
  private struct Run: Hashable, Comparable {
    let calendar: ObjectID
    let domain: UInt8
    let durationClass: UInt8

    static func < (a: Run, b: Run) -> Bool {
      (a.calendar, a.domain, a.durationClass) < (b.calendar, b.domain, b.durationClass)
    }
  }

  /// One instance, in key order once sorted (`run` numbers the runs in key order).
  private struct Entry: Comparable {
    let run: UInt32
    let start: Int64
    let itemHigh: UInt64
    let itemLow: UInt64
    let occurrence: Int64
    let end: Int64
    let flags: UInt8

    static func < (a: Entry, b: Entry) -> Bool {
      (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) < (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
    }

    static func == (a: Entry, b: Entry) -> Bool {
      (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) == (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
    }
  }

  private var horizon = Int64.min
  private var live: [ObjectID: Item] = [:]
  private var longest: [Run: Int64] = [:]

  init(_ projection: RangeProjection) { self.projection = projection }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    switch header.kind {
    case .eventSaved:
      let (id, calendar, state) = try RangeState.saved(payload)
      // The start is all the horizon needs; the event is decoded once, when it is indexed.
      let start = try ModelCodec.wallClock(PayloadReader(Payload(bytes: state)).signed(3))
      horizon = max(horizon, RangeProjection.horizon(for: header.timestamp, reaching: start))
      if let previous = live.updateValue(Item(calendar: calendar, state: state), forKey: id) {
        try retire(previous, id)
      }
    case .eventRemoved:
      horizon = max(horizon, RangeProjection.horizon(for: header.timestamp))
      let id = try PayloadReader(bytes: payload).requiredObjectID(1)
      if let previous = live.removeValue(forKey: id) { try retire(previous, id) }
    case .calendarRemoved:
      horizon = max(horizon, RangeProjection.horizon(for: header.timestamp))
      let calendar = try PayloadReader(bytes: payload).requiredObjectID(1)
      live = live.filter { $0.value.calendar != calendar }
      longest = longest.filter { $0.key.calendar != calendar }
    default:
      break
    }
  }

  /// Counts the instances a replaced or removed state had indexed in the longest durations.
  private mutating func retire(_ item: Item, _ id: ObjectID) throws {
    guard let entries = try RangeItemEntries(item.event(id), horizon: horizon) else { return }
    for instance in entries.instances { raise(entries.calendar, instance) }
  }

  private mutating func raise(_ calendar: ObjectID, _ instance: RangeItemEntries.Instance) {
    let run = Run(calendar: calendar, domain: instance.domain.rawValue, durationClass: instance.durationClass)
    let duration = instance.end - instance.start
    if let current = longest[run], current >= duration { return }
    longest[run] = duration
  }

  // The output, in key order, and how much of it is written.
  private var calendars: [ObjectID] = []
  private var entries: [Entry] = []
  private var openSeries: [(ObjectID, ObjectID, [UInt8])] = []
  private var states: [(ObjectID, ObjectID, [UInt8])] = []
  private var written = 0

  mutating func prepare() throws {
    calendars = Set(live.values.map(\.calendar)).sorted()
    let calendarIndex = Dictionary(uniqueKeysWithValues: calendars.enumerated().map { ($1, UInt32($0)) })
    for (id, item) in live {
      guard let indexed = try RangeItemEntries(item.event(id), horizon: horizon) else { continue }
      let number = calendarIndex[indexed.calendar]! << 16
      for instance in indexed.instances {
        raise(indexed.calendar, instance)
        entries.append(
          Entry(
            run: number | UInt32(instance.domain.rawValue) << 8 | UInt32(instance.durationClass),
            start: instance.start, itemHigh: id.high, itemLow: id.low, occurrence: instance.occurrence,
            end: instance.end, flags: instance.flags))
      }
      if indexed.isOpen { openSeries.append((indexed.calendar, id, item.state)) }
      if indexed.isOpen || !indexed.instances.isEmpty { states.append((id, indexed.calendar, item.state)) }
    }
    live = [:]
    entries.sort()
    openSeries.sort { ($0.0, $0.1) < ($1.0, $1.1) }
    states.sort { $0.0 < $1.0 }
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let end = min(entries.count, written + limit)
    if written < end {
      try writeInstances(entries[written..<end], &txn)
      written = end
      return false
    }
    for (calendar, id, state) in openSeries {
      try txn.put(state, forKey: calendar.bytes + id.bytes, in: projection.open, options: .append)
    }
    for (id, calendar, state) in states {
      try txn.put(calendar.bytes + state, forKey: id.bytes, in: projection.items, options: .append)
    }
    try writeMeta(&txn)
    return true
  }

  private func writeInstances(_ entries: ArraySlice<Entry>, _ txn: inout WriteTransaction) throws {
    var key = [UInt8](repeating: 0, count: RangeKey.instanceLength)
    var value = [UInt8](repeating: 0, count: 9)
    var run = UInt32.max
    for entry in entries {
      if entry.run != run {
        run = entry.run
        let calendar = calendars[Int(run >> 16)]
        key.withUnsafeMutableBytes { bytes in
          bytes.storeBytes(of: calendar.high.bigEndian, toByteOffset: 0, as: UInt64.self)
          bytes.storeBytes(of: calendar.low.bigEndian, toByteOffset: 8, as: UInt64.self)
          bytes[16] = UInt8(truncatingIfNeeded: run >> 8)
          bytes[17] = UInt8(truncatingIfNeeded: run)
        }
      }
      key.withUnsafeMutableBytes { bytes in
        bytes.storeBytes(of: RangeKey.sortable(entry.start), toByteOffset: RangeKey.startOffset, as: UInt64.self)
        bytes.storeBytes(of: entry.itemHigh.bigEndian, toByteOffset: RangeKey.itemOffset, as: UInt64.self)
        bytes.storeBytes(of: entry.itemLow.bigEndian, toByteOffset: RangeKey.itemOffset + 8, as: UInt64.self)
        bytes.storeBytes(
          of: RangeKey.sortable(entry.occurrence), toByteOffset: RangeKey.occurrenceOffset, as: UInt64.self)
      }
      value.withUnsafeMutableBytes { bytes in
        bytes.storeBytes(of: RangeKey.sortable(entry.end), toByteOffset: 0, as: UInt64.self)
        bytes[8] = entry.flags
      }
      try txn.put(value, forKey: key, in: projection.instances, options: .append)
    }
  }

  /// The horizon, then the longest duration of every run, in key order (`horizon` < `maxDuration…`).
  private func writeMeta(_ txn: inout WriteTransaction) throws {
    if horizon != .min {
      var encoded: [UInt8] = []
      RangeKey.append(horizon, to: &encoded)
      try txn.put(encoded, forKey: RangeProjection.horizonKey, in: projection.meta, options: .append)
    }
    for (run, duration) in longest.sorted(by: { $0.key < $1.key }) {
      var encoded: [UInt8] = []
      RangeKey.append(duration, to: &encoded)
      let key = RangeProjection.maxDurationKey(
        run.calendar, RangeKey.Domain(rawValue: run.domain)!, run.durationClass)
      try txn.put(encoded, forKey: key, in: projection.meta, options: .append)
    }
  }
}
