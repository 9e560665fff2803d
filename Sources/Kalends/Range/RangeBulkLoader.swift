internal import Foundation
internal import LMDB
import Synchronization

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

  /// A live item: its calendar and its timing state in ``arena``.
  private struct Item {
    let id: ObjectID
    let calendar: ObjectID
    let state: Range<Int>
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

  private var horizon = Int64.min
  /// The live items by identifier: their slot in ``items`` (`nil` there once removed).
  private var slots: [ObjectID: Int] = [:]
  private var items: [Item?] = []
  /// Every timing state read, one after the other.
  private var arena: [UInt8] = []
  private var longest: [Run: Int64] = [:]

  init(_ projection: RangeProjection) { self.projection = projection }

  mutating func reserve(records: Int, bytes: Int) {
    arena.reserveCapacity(bytes)
    items.reserveCapacity(records)
    // A dictionary that grows rehashes every key each time it doubles.
    slots.reserveCapacity(records)
  }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    switch header.kind {
    case .eventSaved:
      let start = arena.count
      let (id, calendar) = try RangeState.saved(payload, appendingTimingTo: &arena)
      let item = Item(id: id, calendar: calendar, state: start..<arena.count)
      // The start is all the horizon needs; the event is decoded once, when it is indexed.
      let eventStart = try Self.start(of: item, arena)
      horizon = max(horizon, RangeProjection.horizon(for: header.timestamp, reaching: eventStart))
      let (slot, isNew) = slots.slot(for: id, next: items.count)
      if isNew {
        items.append(item)
      } else {
        if let previous = items[slot] { try retire(previous) }
        items[slot] = item
      }
    case .eventRemoved:
      horizon = max(horizon, RangeProjection.horizon(for: header.timestamp))
      let id = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      if let slot = slots.removeValue(forKey: id), let previous = items[slot] {
        items[slot] = nil
        try retire(previous)
      }
    case .calendarRemoved:
      horizon = max(horizon, RangeProjection.horizon(for: header.timestamp))
      let calendar = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      for (id, slot) in slots where items[slot]?.calendar == calendar {
        items[slot] = nil
        slots[id] = nil
      }
      longest = longest.filter { $0.key.calendar != calendar }
    default:
      break
    }
  }

  /// The start of `item`, read from its timing state.
  private static func start(of item: Item, _ arena: [UInt8]) throws(StoreError) -> LocalDateTime? {
    let timing = arena.span.bytes.extracting(item.state)
    return try ModelCodec.wallClock(PayloadFieldIndex(timing).signed(3, in: timing))
  }

  /// The event of `item`, decoded from its timing state.
  private static func event(_ item: Item, _ arena: [UInt8]) throws -> Event {
    try ModelCodec.decodeEvent(
      id: item.id, calendarID: item.calendar, version: .none, modified: nil,
      PayloadReader(Payload(bytes: Array(arena[item.state]))))
  }

  /// Counts the instances a replaced or removed state had indexed in the longest durations.
  private mutating func retire(_ item: Item) throws {
    guard let entries = try RangeItemEntries(Self.event(item, arena), horizon: horizon) else { return }
    for instance in entries.instances {
      let run = Run(calendar: entries.calendar, domain: instance.domain.rawValue, durationClass: instance.durationClass)
      longest[run] = max(longest[run] ?? .min, instance.end - instance.start)
    }
  }

  // The output, in key order, and how much of it is written.
  private var calendars: [ObjectID] = []
  /// The instances, sorted by the workers, merged and packed into blocks as they are written.
  private var blocks: MergedBlocks?
  /// Open series and indexed items, with the keys they are written under (sorted by value, not
  /// through ``items``): slots of ``items``, by calendar then item and by item.
  private var openSeries: [(calendar: ObjectID, id: ObjectID, slot: Int)] = []
  private var states: [(id: ObjectID, slot: Int)] = []
  /// How many of ``states`` are written.
  private var writtenStates = 0

  /// What one worker of ``prepare()`` indexed: its entries sorted, its open series and indexed
  /// items (slots), and the longest durations it saw.
  private struct Part: Sendable {
    var entries: [InstanceEntry] = []
    /// Where each run starts in ``entries`` (by ``InstanceEntry/runSlot(_:)``).
    var runStarts: [Int] = []
    var openSeries: [(calendar: ObjectID, id: ObjectID, slot: Int)] = []
    var states: [(id: ObjectID, slot: Int)] = []
    /// The longest instance of each run seen, by ``runSlot(_:)`` (`Int64.min`: none).
    var longest: [Int64]
  }

  mutating func prepare() throws {
    slots = [:]
    calendars = Set(items.lazy.compactMap { $0?.calendar }).sorted()
    let calendarIndex = Dictionary(uniqueKeysWithValues: calendars.enumerated().map { ($1, UInt32($0)) })
    // The items are indexed by as many workers as there are cores (small stores too, so that the
    // tests run the merge), each sorting its own entries.
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, items.count / 16))
    let (items, arena, horizon) = (self.items, self.arena, self.horizon)
    let parts = Mutex<[Int: Result<Part, any Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let range = (items.count * worker / workers)..<(items.count * (worker + 1) / workers)
      let part = Result { () throws -> Part in
        try Self.index(items, range, arena, horizon, calendarIndex)
      }
      parts.withLock { $0[worker] = part }
    }
    var entries: [[InstanceEntry]] = []
    var runStarts: [[Int]] = []
    for worker in 0..<workers {
      let part = try parts.withLock { $0[worker]! }.get()
      entries.append(part.entries)
      runStarts.append(part.runStarts)
      openSeries += part.openSeries
      states += part.states
      for (slot, duration) in part.longest.enumerated() where duration != .min {
        let (calendar, clock, durationClass) = InstanceEntry.run(ofSlot: slot)
        let run = Run(calendar: calendars[calendar], domain: clock, durationClass: durationClass)
        longest[run] = max(longest[run] ?? .min, duration)
      }
    }
    parts.withLock { $0 = [:] }
    blocks = MergedBlocks(entries, runStarts: runStarts, calendars: calendars)
    openSeries.sort { ($0.calendar, $0.id) < ($1.calendar, $1.id) }
    states.sort { $0.id < $1.id }
  }

  /// Indexes the live items in `range` of `items` up to `horizon`.
  private static func index(
    _ items: [Item?], _ range: Range<Int>, _ arena: [UInt8], _ horizon: Int64, _ calendarIndex: [ObjectID: UInt32]
  ) throws -> Part {
    var part = Part(longest: Array(repeating: .min, count: calendarIndex.count << 3))
    // Virtual memory: pages are touched only as entries are appended, and the array never grows
    // by copying on stores with up to a dozen instances per item.
    part.entries.reserveCapacity(range.count * 12)
    var single = SingleEventTiming()
    for slot in range {
      guard let item = items[slot] else { continue }
      switch try single.read(arena.span.bytes.extracting(item.state)) {
      case .notIndexed:
        continue
      case .single(let instance):
        let run =
          calendarIndex[item.calendar]! << 16 | UInt32(instance.domain.rawValue) << 8 | UInt32(instance.durationClass)
        part.longest[InstanceEntry.runSlot(run)] = max(
          part.longest[InstanceEntry.runSlot(run)], instance.end - instance.start)
        part.entries.append(
          InstanceEntry(
            start: instance.start, itemHigh: item.id.high, itemLow: item.id.low,
            occurrence: instance.occurrence, end: instance.end, run: run, flags: instance.flags))
        part.states.append((item.id, slot))
        continue
      case .series:
        break
      }
      guard let indexed = try RangeItemEntries(event(item, arena), horizon: horizon) else { continue }
      let number = calendarIndex[indexed.calendar]! << 16
      for instance in indexed.instances {
        let run = number | UInt32(instance.domain.rawValue) << 8 | UInt32(instance.durationClass)
        part.longest[InstanceEntry.runSlot(run)] = max(
          part.longest[InstanceEntry.runSlot(run)], instance.end - instance.start)
        part.entries.append(
          InstanceEntry(
            start: instance.start, itemHigh: item.id.high, itemLow: item.id.low,
            occurrence: instance.occurrence, end: instance.end, run: run, flags: instance.flags))
      }
      if indexed.isOpen { part.openSeries.append((item.calendar, item.id, slot)) }
      if indexed.isOpen || !indexed.instances.isEmpty { part.states.append((item.id, slot)) }
    }
    part.runStarts = InstanceEntry.sort(&part.entries, runs: calendarIndex.count << 3)
    return part
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    if var blocks, !blocks.isDone {
      try txn.withCursor(on: projection.instances) { cursor in _ = try blocks.append(to: &cursor, limit: limit) }
      // Done, the entries are let go before the other databases are written.
      self.blocks = blocks.isDone ? nil : blocks
      return false
    }
    let (items, arena) = (self.items, self.arena)
    if writtenStates == 0 {
      try txn.withCursor(on: projection.open) { cursor in
        var key: [UInt8] = []
        for (_, _, slot) in openSeries {
          let item = items[slot]!
          key.removeAll(keepingCapacity: true)
          item.calendar.append(to: &key)
          item.id.append(to: &key)
          try cursor.put(arena[item.state], forKey: key, options: .append)
        }
      }
    }
    // `item` → calendar ‖ timing state, read in place from the arena.
    let range = writtenStates..<min(states.count, writtenStates + limit)
    try txn.withCursor(on: projection.items) { cursor in
      let key = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
      defer { key.deallocate() }
      var value: [UInt8] = []
      try arena.withUnsafeBytes { arena in
        for (id, slot) in states[range] {
          let item = items[slot]!
          id.store(in: key, at: 0)
          value.removeAll(keepingCapacity: true)
          item.calendar.append(to: &value)
          value.append(contentsOf: UnsafeRawBufferPointer(rebasing: arena[item.state]))
          try cursor.put(value, forKey: UnsafeRawBufferPointer(key), options: .append)
        }
      }
    }
    writtenStates = range.upperBound
    guard writtenStates == states.count else { return false }
    try writeMeta(&txn)
    return true
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
