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

  /// One instance, in key order once sorted (`run` numbers the runs in key order). The 32-bit run
  /// after the 64-bit fields keeps it 48 bytes.
  private struct Entry: Comparable {
    let start: Int64
    let itemHigh: UInt64
    let itemLow: UInt64
    let occurrence: Int64
    let end: Int64
    let run: UInt32
    let flags: UInt8

    static func < (a: Entry, b: Entry) -> Bool {
      (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) < (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
    }

    static func == (a: Entry, b: Entry) -> Bool {
      (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) == (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
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
      if let slot = slots[id] {
        if let previous = items[slot] { try retire(previous) }
        items[slot] = item
      } else {
        slots[id] = items.count
        items.append(item)
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
  /// Each worker's entries, sorted: merged as they are written.
  private var parts: [[Entry]] = []
  /// How many entries of each part are written.
  private var heads: [Int] = []
  /// Open series and indexed items: slots of ``items``, by calendar then item and by item.
  private var openSeries: [Int] = []
  private var states: [Int] = []
  private var written = 0

  /// What one worker of ``prepare()`` indexed: its entries sorted, its open series and indexed
  /// items (slots), and the longest durations it saw.
  private struct Part: Sendable {
    var entries: [Entry] = []
    var openSeries: [Int] = []
    var states: [Int] = []
    /// The longest instance of each run seen, by ``runSlot(_:)`` (`Int64.min`: none).
    var longest: [Int64]
  }

  /// Where a run (calendar number, clock, class) is in arrays of `calendars.count << 3` slots; in
  /// key order.
  private static func runSlot(_ run: UInt32) -> Int { Int(run >> 16) << 3 | Int(run >> 8 & 1) << 2 | Int(run & 3) }

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
    for worker in 0..<workers {
      let part = try parts.withLock { $0[worker]! }.get()
      self.parts.append(part.entries)
      openSeries += part.openSeries
      states += part.states
      for (slot, duration) in part.longest.enumerated() where duration != .min {
        let run = Run(calendar: calendars[slot >> 3], domain: UInt8(slot >> 2 & 1), durationClass: UInt8(slot & 3))
        longest[run] = max(longest[run] ?? .min, duration)
      }
    }
    heads = Array(repeating: 0, count: workers)
    openSeries.sort { (items[$0]!.calendar, items[$0]!.id) < (items[$1]!.calendar, items[$1]!.id) }
    states.sort { items[$0]!.id < items[$1]!.id }
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
        part.longest[Self.runSlot(run)] = max(part.longest[Self.runSlot(run)], instance.end - instance.start)
        part.entries.append(
          Entry(
            start: instance.start, itemHigh: item.id.high, itemLow: item.id.low,
            occurrence: instance.occurrence, end: instance.end, run: run, flags: instance.flags))
        part.states.append(slot)
        continue
      case .series:
        break
      }
      guard let indexed = try RangeItemEntries(event(item, arena), horizon: horizon) else { continue }
      let number = calendarIndex[indexed.calendar]! << 16
      for instance in indexed.instances {
        let run = number | UInt32(instance.domain.rawValue) << 8 | UInt32(instance.durationClass)
        part.longest[Self.runSlot(run)] = max(part.longest[Self.runSlot(run)], instance.end - instance.start)
        part.entries.append(
          Entry(
            start: instance.start, itemHigh: item.id.high, itemLow: item.id.low,
            occurrence: instance.occurrence, end: instance.end, run: run, flags: instance.flags))
      }
      if indexed.isOpen { part.openSeries.append(slot) }
      if indexed.isOpen || !indexed.instances.isEmpty { part.states.append(slot) }
    }
    Self.sort(&part.entries, runs: calendarIndex.count << 3)
    return part
  }

  /// Puts `entries` in key order, in place (no second copy of them): distributed by run first (a
  /// counting sort on the calendar's number, clock and class, `runs` slots, moving each entry
  /// straight to its run's next free slot), then each run by ``sortRun(_:scratch:)``.
  private static func sort(_ entries: inout [Entry], runs: Int) {
    var starts = [Int](repeating: 0, count: runs + 1)
    for entry in entries { starts[runSlot(entry.run) + 1] += 1 }
    for index in 0..<runs { starts[index + 1] += starts[index] }
    var next = starts
    entries.withUnsafeMutableBufferPointer { entries in
      for slot in 0..<runs {
        while next[slot] < starts[slot + 1] {
          var entry = entries[next[slot]]
          var home = runSlot(entry.run)
          while home != slot {
            swap(&entry, &entries[next[home]])
            next[home] += 1
            home = runSlot(entry.run)
          }
          entries[next[slot]] = entry
          next[slot] += 1
        }
      }
      let longestRun = (0..<runs).map { starts[$0 + 1] - starts[$0] }.max() ?? 0
      let scratch = UnsafeMutableBufferPointer<Entry>.allocate(capacity: max(1, longestRun))
      defer { scratch.deallocate() }
      for slot in 0..<runs where starts[slot + 1] - starts[slot] > 1 {
        sortRun(UnsafeMutableBufferPointer(rebasing: entries[starts[slot]..<starts[slot + 1]]), scratch: scratch)
      }
    }
  }

  /// Sorts the entries of one run by start, item and occurrence: a least-significant-digit radix
  /// sort on the start, a byte at a time over the bits that vary within the run (a pass moves every
  /// entry once, where a comparison sort moves each about log₂ n times), then each group of equal
  /// starts by item and occurrence. `scratch` holds at least as many entries as `run`.
  private static func sortRun(_ run: UnsafeMutableBufferPointer<Entry>, scratch: UnsafeMutableBufferPointer<Entry>) {
    var (low, high) = (Int64.max, Int64.min)
    for entry in run { (low, high) = (min(low, entry.start), max(high, entry.start)) }
    let span = UInt64(bitPattern: high &- low)
    var (source, target) = (run.baseAddress!, scratch.baseAddress!)
    var counts = [Int](repeating: 0, count: 256)
    var shift: UInt64 = 0
    while shift < 64 && span >> shift != 0 {
      for index in 0..<256 { counts[index] = 0 }
      for index in 0..<run.count {
        counts[Int(UInt64(bitPattern: source[index].start &- low) >> shift & 255)] += 1
      }
      var position = 0
      for index in 0..<256 { (counts[index], position) = (position, position + counts[index]) }
      for index in 0..<run.count {
        let digit = Int(UInt64(bitPattern: source[index].start &- low) >> shift & 255)
        (target + counts[digit]).initialize(to: source[index])
        counts[digit] += 1
      }
      swap(&source, &target)
      shift += 8
    }
    if source != run.baseAddress! { run.baseAddress!.update(from: source, count: run.count) }
    // Equal starts: by item and occurrence (insertion sort for the usual small groups).
    var first = 0
    while first < run.count {
      var next = first + 1
      while next < run.count && run[next].start == run[first].start { next += 1 }
      if next - first > 32 {
        run[first..<next].sort()
      } else if next - first > 1 {
        for index in (first + 1)..<next {
          let entry = run[index]
          var slot = index
          while slot > first && entry < run[slot - 1] {
            run[slot] = run[slot - 1]
            slot -= 1
          }
          run[slot] = entry
        }
      }
      first = next
    }
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    if zip(parts, heads).contains(where: { $1 < $0.count }) || !block.isEmpty {
      try writeInstances(limit, &txn)
      return false
    }
    let (items, arena) = (self.items, self.arena)
    try txn.withCursor(on: projection.open) { cursor in
      for slot in openSeries {
        let item = items[slot]!
        try cursor.put(arena[item.state], forKey: item.calendar.bytes + item.id.bytes, options: .append)
      }
    }
    try txn.withCursor(on: projection.items) { cursor in
      var value: [UInt8] = []
      for slot in states {
        let item = items[slot]!
        value.removeAll(keepingCapacity: true)
        value.append(contentsOf: item.calendar.bytes)
        value.append(contentsOf: arena[item.state])
        try cursor.put(value, forKey: item.id.bytes, options: .append)
      }
    }
    try writeMeta(&txn)
    return true
  }

  /// The next entry in key order across the parts (removed from them), or `nil` at the end.
  private mutating func nextEntry() -> Entry? {
    var best = -1
    for part in parts.indices where heads[part] < parts[part].count {
      if best < 0 || parts[part][heads[part]] < parts[best][heads[best]] { best = part }
    }
    guard best >= 0 else { return nil }
    heads[best] += 1
    return parts[best][heads[best] - 1]
  }

  /// The records of the block being filled, and its run.
  private var block: [UInt8] = []
  private var blockRun = UInt32.max

  /// Writes up to `limit` more instances, merging the parts, in blocks (``InstanceBlocks``): a
  /// block is written when it ends (at a cut, at its maximum size, or at the end of its run), so
  /// the one being filled may carry over to the next call.
  private mutating func writeInstances(_ limit: Int, _ txn: inout WriteTransaction) throws {
    block.reserveCapacity(InstanceBlocks.maxRecords * InstanceBlocks.recordLength)
    var record = [UInt8](repeating: 0, count: InstanceBlocks.recordLength)
    try txn.withCursor(on: projection.instances) { cursor in
      for _ in 0..<limit {
        guard let entry = nextEntry() else {
          try flushBlock(&cursor)
          break
        }
        if entry.run != blockRun {
          try flushBlock(&cursor)
          blockRun = entry.run
        }
        let (high, low) = (entry.itemHigh.bigEndian, entry.itemLow.bigEndian)
        let stored = RangeKey.sortable(entry.occurrence)
        record.withUnsafeMutableBytes { bytes in
          bytes.storeBytes(of: RangeKey.sortable(entry.start), toByteOffset: 0, as: UInt64.self)
          bytes.storeBytes(of: high, toByteOffset: InstanceBlocks.itemOffset, as: UInt64.self)
          bytes.storeBytes(of: low, toByteOffset: InstanceBlocks.itemOffset + 8, as: UInt64.self)
          bytes.storeBytes(of: stored, toByteOffset: InstanceBlocks.occurrenceOffset, as: UInt64.self)
          bytes.storeBytes(of: RangeKey.sortable(entry.end), toByteOffset: InstanceBlocks.endOffset, as: UInt64.self)
          bytes[InstanceBlocks.flagsOffset] = entry.flags
        }
        block.append(contentsOf: record)
        let count = block.count / InstanceBlocks.recordLength
        if InstanceBlocks.endsBlock(count: count, lastIsCut: InstanceBlocks.isCut(high, low, stored)) {
          try flushBlock(&cursor)
        }
      }
    }
  }

  /// Writes the block being filled, keyed by its run and last record.
  private mutating func flushBlock(_ cursor: inout Cursor) throws {
    guard !block.isEmpty else { return }
    let calendar = calendars[Int(blockRun >> 16)]
    var key = calendar.bytes
    key.reserveCapacity(InstanceBlocks.blockKeyLength)
    key.append(UInt8(truncatingIfNeeded: blockRun >> 8))
    key.append(UInt8(truncatingIfNeeded: blockRun))
    key.append(contentsOf: block[(block.count - InstanceBlocks.recordLength)...].prefix(InstanceBlocks.keyLength))
    try cursor.put(block, forKey: key, options: .append)
    block.removeAll(keepingCapacity: true)
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
