internal import CPrefetch
internal import Foundation
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

  /// A live item: its calendar, its timing state in ``arena``, the position of the record that
  /// saved it (named when the state cannot be indexed), and whether its fields tell that it is
  /// indexed (``RangeState/isSurelyIndexed(tags:)``): such items are written to `range.items`
  /// before any is indexed.
  private struct Item {
    let id: ObjectID
    let calendar: ObjectID
    let state: Range<Int>
    let position: LogPosition
    let isSurelyIndexed: Bool
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
  /// Records at an earlier time (microseconds), of events starting earlier (wall-clock seconds),
  /// leave ``horizon`` as it is (``moveHorizon(for:reaching:)``).
  private var quietBelow = (timestamp: Int64.min, start: Int64.min)
  /// The items by identifier: their slot in ``items`` (`nil` there once removed).
  private var slots = ObjectSlots()
  private var items: [Item?] = []
  /// Every timing state read, one after the other.
  private var arena: [UInt8] = []
  private var longest: [Run: Int64] = [:]

  init(_ projection: RangeProjection) { self.projection = projection }

  mutating func reserve(records: Int, bytes: Int) {
    HugePages.reserve(&arena, capacity: bytes)
    HugePages.reserve(&items, capacity: records)
    // A table that grows rehashes every key each time it doubles.
    slots = ObjectSlots(capacity: records)
  }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    switch header.kind {
    case .eventSaved where header.content != .present:
      try moveHorizon(for: header.timestamp)
      let id = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      if let slot = slots.slot(of: 0, id), let previous = items[slot] {
        items[slot] = nil
        try retire(previous)
      }
    case .eventSaved:
      let first = arena.count
      let (id, calendar, start, tags) = try RangeState.saved(payload, appendingTimingTo: &arena)
      slots.prefetch(0, id)
      let item = Item(
        id: id, calendar: calendar, state: first..<arena.count, position: header.position,
        isSurelyIndexed: RangeState.isSurelyIndexed(tags: tags))
      // The start is all the horizon needs; the event is decoded once, when it is indexed.
      try moveHorizon(for: header.timestamp, reaching: start)
      let (slot, isNew) = slots.slot(for: 0, id, next: items.count)
      if isNew {
        items.append(item)
      } else {
        if let previous = items[slot] { try retire(previous) }
        items[slot] = item
      }
    case .eventRemoved:
      try moveHorizon(for: header.timestamp)
      let id = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      if let slot = slots.slot(of: 0, id), let previous = items[slot] {
        items[slot] = nil
        try retire(previous)
      }
    case .calendarRemoved:
      try moveHorizon(for: header.timestamp)
      let calendar = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      for slot in items.indices where items[slot]?.calendar == calendar { items[slot] = nil }
      longest = longest.filter { $0.key.calendar != calendar }
    case .contentErased:
      guard let recorded = try RangeBounds(payload: payload) else { return }
      if let recordedHorizon = recorded.horizon, recordedHorizon > horizon { raiseHorizon(to: recordedHorizon) }
      for bound in recorded.bounds {
        let run = Run(calendar: bound.calendar, domain: bound.domain, durationClass: bound.durationClass)
        longest[run] = max(longest[run] ?? .min, bound.seconds)
      }
    default:
      break
    }
  }

  /// Moves ``horizon`` for a record at `timestamp` saving an event that starts at `start`
  /// (wall-clock seconds as stored; checked), as ``RangeProjection/horizon(for:reaching:)`` says.
  /// Most records cannot move it: a record before January 1 two years before the horizon's year,
  /// of an event starting before January 1 of the year before it, gives a horizon no later (its
  /// record's year plus three and its start's plus two are both at most the horizon's year), so the
  /// years are worked out only for the others.
  private mutating func moveHorizon(for timestamp: Timestamp, reaching start: Int64? = nil) throws(StoreError) {
    let wallClock = LocalDateTime.min.wallClockSeconds...LocalDateTime.max.wallClockSeconds
    if let start, !wallClock.contains(start) { _ = try ModelCodec.wallClock(start) }
    // A record's time outside years 1…9999 counts as year 9989.
    if timestamp.rawValue < quietBelow.timestamp, timestamp.rawValue >= wallClock.lowerBound * 1_000_000,
      start ?? .min < quietBelow.start
    {
      return
    }
    let next = RangeProjection.horizon(for: timestamp, reaching: try ModelCodec.wallClock(start))
    guard next > horizon else { return }
    raiseHorizon(to: next)
  }

  /// Sets ``horizon`` to `next`, later than it, and the bounds under which records leave it as is.
  private mutating func raiseHorizon(to next: Int64) {
    horizon = next
    let year = LocalDateTime(unchecked: next).year
    if let records = LocalDateTime(year: year - 2, month: 1, day: 1),
      let starts = LocalDateTime(year: year - 1, month: 1, day: 1)
    {
      quietBelow = (records.wallClockSeconds * 1_000_000, starts.wallClockSeconds)
    }
  }

  /// The event of `item`, decoded from its timing state.
  private static func event(_ item: Item, _ arena: [UInt8]) throws -> Event {
    try ModelCodec.decodeEvent(
      id: item.id, calendarID: item.calendar, version: .none, modified: nil,
      PayloadReader(Payload(bytes: Array(arena[item.state]))))
  }

  /// Counts the instances a replaced or removed state had indexed in the longest durations.
  private mutating func retire(_ item: Item) throws {
    let indexed: RangeItemEntries?
    do {
      indexed = try RangeItemEntries(Self.event(item, arena), horizon: horizon)
    } catch {
      throw StoreError.projection(RangeProjection.name, cannotApply: item.position, error)
    }
    guard let entries = indexed else { return }
    for instance in entries.instances {
      let run = Run(calendar: entries.calendar, domain: instance.domain.rawValue, durationClass: instance.durationClass)
      longest[run] = max(longest[run] ?? .min, instance.end - instance.start)
    }
  }

  // The output, in key order, and how much of it is written.
  private var calendars: [ObjectID] = []
  /// The items indexed in the background, and where each calendar's units start in it (one more
  /// offset than there are calendars).
  private var indexing: RangeIndexPipeline.Owner?
  private var unitStarts: [Int] = []
  /// The calendar whose instances are being written, and its blocks once its units are indexed.
  private var calendar = 0
  private var blocks: CalendarBlocks?
  /// The items written to `range.items` first, before any is indexed (those whose fields tell that
  /// they are indexed), in identifier order, and how many of them are written.
  private var early: [(id: ObjectID, slot: Int)] = []
  private var writtenEarly = 0
  /// Open series, and the items indexing did not find as ``early`` foretold them (slots of
  /// ``items``), sorted by the keys they are written under, once every instance is written.
  private var openSeries: [(calendar: ObjectID, id: ObjectID, slot: Int)]?
  private var corrections: [(id: ObjectID, slot: Int)] = []
  /// How many of ``corrections`` are written.
  private var writtenCorrections = 0

  mutating func prepare() throws {
    slots = ObjectSlots()
    calendars = Set(items.lazy.compactMap { $0?.calendar }).sorted()
    let calendarIndex = Dictionary(uniqueKeysWithValues: calendars.enumerated().map { ($1, $0) })
    // The live items grouped by calendar (a counting sort; in log order within a calendar).
    var numbers = [Int](repeating: -1, count: items.count)
    var starts = [Int](repeating: 0, count: calendars.count + 1)
    early = []
    early.reserveCapacity(items.count)
    for (slot, item) in items.enumerated() {
      guard let item else { continue }
      numbers[slot] = calendarIndex[item.calendar]!
      starts[numbers[slot] + 1] += 1
      if item.isSurelyIndexed { early.append((item.id, slot)) }
    }
    for index in calendars.indices { starts[index + 1] += starts[index] }
    IdentifierOrder.sort(&early) { $0.id }
    var grouped = [Int](repeating: 0, count: starts.last!)
    var next = starts
    for (slot, number) in numbers.enumerated() where number >= 0 {
      grouped[next[number]] = slot
      next[number] += 1
    }
    // Units of a bounded number of items, so that a calendar of most of the items is still indexed
    // on every core (its parts merged as the writer writes them), and small stores too are cut in a
    // few units per core (so that the tests run the merge). A calendar of one unit has its blocks
    // coded by the worker that indexes it, beside the writer.
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    let unitItems = max(16, min(131_072, grouped.count / (4 * workers)))
    var units: [RangeIndexPipeline.Unit] = []
    unitStarts = [0]
    for number in calendars.indices {
      let count = starts[number + 1] - starts[number]
      let pieces = (count + unitItems - 1) / unitItems
      for piece in 0..<pieces {
        let slots = (starts[number] + count * piece / pieces)..<(starts[number] + count * (piece + 1) / pieces)
        units.append(
          RangeIndexPipeline.Unit(calendar: number, slots: slots, whole: pieces == 1 ? calendars[number] : nil))
      }
      unitStarts.append(units.count)
    }
    let (items, arena, horizon, order) = (self.items, self.arena, self.horizon, grouped)
    indexing = RangeIndexPipeline.Owner(
      RangeIndexPipeline(units: units, workers: workers) { unit, entries, scratch in
        try Self.index(items, order[unit.slots], arena, horizon, into: &entries, scratch: &scratch)
      })
  }

  /// How many items ahead of the one indexed a worker asks for a timing state.
  private static let statePrefetchDistance = 4

  /// Indexes the live items at `slots` of `items` (all of one calendar) up to `horizon`: appends
  /// their instances to `entries` and sorts them.
  private static func index(
    _ items: [Item?], _ slots: ArraySlice<Int>, _ arena: [UInt8], _ horizon: Int64,
    into entries: inout [InstanceEntry], scratch: inout InstanceEntry.SortScratch
  ) throws -> RangeIndexPipeline.Part {
    var part = RangeIndexPipeline.Part()
    // Room for a dozen instances per item, with some to spare: a buffer handed on from a unit of
    // about the same size is then reused as it is, rather than replaced by fresh memory.
    if entries.capacity < slots.count * 12 { HugePages.reserve(&entries, capacity: slots.count * 16) }
    /// Appends an instance of `item` and counts it in its run's longest duration.
    func add(_ instance: RangeItemEntries.Instance, of item: Item) {
      let entry = InstanceEntry(
        start: instance.start, itemHigh: item.id.high, itemLow: item.id.low, occurrence: instance.occurrence,
        end: instance.end, clock: instance.domain.rawValue, durationClass: instance.durationClass,
        flags: instance.flags)
      part.longest[Int(entry.run)] = max(part.longest[Int(entry.run)], instance.end - instance.start)
      entries.append(entry)
    }
    var single = SingleEventTiming()
    var spare: [RangeItemEntries.Instance] = []
    for (position, slot) in zip(slots.indices, slots) {
      // The states are in log order, a calendar's items among every other's: each would be a
      // cache miss when it is read.
      if position + Self.statePrefetchDistance < slots.endIndex,
        let ahead = items[slots[position + Self.statePrefetchDistance]]
      {
        arena.withUnsafeBytes { Prefetch.bytes(ahead.state, of: $0) }
      }
      let item = items[slot]!
      // Whether the item owns keys (and is listed in `range.items`).
      var isIndexed = false
      defer { if isIndexed != item.isSurelyIndexed { part.corrections.append((item.id, slot)) } }
      do {
        switch try single.read(arena.span.bytes.extracting(item.state)) {
        case .notIndexed:
          continue
        case .single(let instance):
          add(instance, of: item)
          isIndexed = true
          continue
        case .series:
          break
        }
        guard let indexed = try RangeItemEntries(event(item, arena), horizon: horizon, reusing: &spare) else {
          continue
        }
        for instance in indexed.instances { add(instance, of: item) }
        if indexed.isOpen { part.openSeries.append((item.calendar, item.id, slot)) }
        isIndexed = indexed.isOpen || !indexed.instances.isEmpty
        spare = indexed.instances
      } catch {
        throw StoreError.projection(RangeProjection.name, cannotApply: item.position, error)
      }
    }
    part.runStarts = InstanceEntry.sort(&entries, scratch: &scratch)
    // Sorted here, on every core, so that the gathering after the last unit merges sorted runs
    // (the writer's tail waits for it). The corrections are put in order all at once there.
    part.openSeries.sort { $0.id < $1.id }
    return part
  }

  /// Waits, outside the write transaction, until the units of the calendar to write next are
  /// indexed (once the items listed first are written); once every instance is written, collects
  /// the open series and corrections that the workers gathered.
  mutating func awaitNextChunk() throws {
    guard let indexing, early.isEmpty else { return }
    if calendar < calendars.count {
      _ = try indexing.pipeline.parts(unitStarts[calendar]..<unitStarts[calendar + 1], wait: true)
    } else if openSeries == nil {
      collect()
    }
  }

  /// Gathers what the units indexed besides their instances, in key order, and lets the pipeline go.
  private mutating func collect() {
    guard let pipeline = indexing?.pipeline else { return }
    let (gathered, unitLongest) = pipeline.summary()
    for (unit, durations) in zip(pipeline.units, unitLongest) {
      for (run, duration) in durations.enumerated() where duration != .min {
        let (clock, durationClass) = InstanceEntry.clockAndClass(ofRun: run)
        let key = Run(calendar: calendars[unit.calendar], domain: clock, durationClass: durationClass)
        longest[key] = max(longest[key] ?? .min, duration)
      }
    }
    (openSeries, corrections) = (gathered.openSeries, gathered.corrections)
    indexing = nil
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    // `range.items` first, while the workers index the first calendars: the items whose fields
    // tell that they are indexed, in identifier order. Those indexing finds otherwise are put in
    // or taken out after the last instance.
    let (items, arena) = (self.items, self.arena)
    if writtenEarly < early.count {
      let range = writtenEarly..<min(early.count, writtenEarly + limit)
      try txn.withCursor(on: projection.items) { cursor in
        try Self.putItems(early[range], of: items, arena, through: &cursor, options: .append)
      }
      writtenEarly = range.upperBound
      if writtenEarly == early.count { (early, writtenEarly) = ([], 0) }
      return false
    }
    if calendar < calendars.count, let pipeline = indexing?.pipeline {
      // The calendars before this one are written for good (a transaction rolled back is retried
      // from here).
      pipeline.release(below: unitStarts[calendar])
      var written = 0
      try txn.withCursor(on: projection.instances) { cursor in
        while calendar < calendars.count, written < limit {
          if blocks == nil {
            // The first calendar of a transaction is waited for; a later one that is not indexed
            // yet is left to the next transaction, so the write lock is not held meanwhile.
            let units = unitStarts[calendar]..<unitStarts[calendar + 1]
            guard let parts = try pipeline.parts(units, wait: written == 0) else { break }
            if parts.count == 1, let coded = parts[0].coded {
              blocks = .coded(coded)
            } else {
              blocks = .merged(
                MergedBlocks(parts.map(\.entries), runStarts: parts.map(\.runStarts), calendar: calendars[calendar]))
            }
          }
          written += try blocks!.append(to: &cursor, limit: limit - written)
          if blocks!.isDone {
            blocks = nil
            calendar += 1
          }
        }
      }
      return false
    }
    if openSeries == nil { collect() }
    if writtenCorrections == 0 {
      try txn.withCursor(on: projection.open) { cursor in
        var key: [UInt8] = []
        for (_, _, slot) in openSeries ?? [] {
          let item = items[slot]!
          key.removeAll(keepingCapacity: true)
          item.calendar.append(to: &key)
          item.id.append(to: &key)
          try cursor.put(arena[item.state], forKey: key, options: .append)
        }
      }
    }
    // The items indexing did not find as foretold: those written first that own no key are taken
    // out, the others put in among them.
    let range = writtenCorrections..<min(corrections.count, writtenCorrections + limit)
    for (id, slot) in corrections[range] where items[slot]!.isSurelyIndexed {
      try txn.delete(id.bytes, in: projection.items)
    }
    try txn.withCursor(on: projection.items) { cursor in
      try Self.putItems(
        corrections[range].filter { !items[$0.slot]!.isSurelyIndexed }[...], of: items, arena, through: &cursor,
        options: [])
    }
    writtenCorrections = range.upperBound
    guard writtenCorrections == corrections.count else { return false }
    try writeMeta(&txn)
    return true
  }

  /// Puts the `range.items` entries of `listed` (slots of `items`, in identifier order): `item` →
  /// calendar ‖ timing state, read in place from the arena.
  private static func putItems(
    _ listed: ArraySlice<(id: ObjectID, slot: Int)>, of items: [Item?], _ arena: [UInt8],
    through cursor: inout Cursor, options: PutOptions
  ) throws {
    let key = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
    defer { key.deallocate() }
    try items.withUnsafeBufferPointer { items in
      try arena.withUnsafeBytes { arena in
        let distance = Prefetch.distance
        for index in listed.indices {
          // Read in identifier order, the items and their states are each a cache miss away:
          // the item is asked for twice as far ahead as its state.
          if index + 2 * distance < listed.endIndex {
            kalends_prefetch(items.baseAddress! + listed[index + 2 * distance].slot)
          }
          if index + distance < listed.endIndex {
            Prefetch.bytes(items[listed[index + distance].slot]!.state, of: arena)
          }
          let (id, slot) = listed[index]
          let item = items[slot]!
          id.store(in: key, at: 0)
          let state = UnsafeRawBufferPointer(rebasing: arena[item.state])
          try cursor.put(reserving: 16 + state.count, forKey: UnsafeRawBufferPointer(key), options: options) {
            item.calendar.store(in: $0, at: 0)
            UnsafeMutableRawBufferPointer(rebasing: $0[16...]).copyMemory(from: state)
          }
        }
      }
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

/// The blocks of the calendar a rebuild is writing: coded by a range worker, or merged and coded
/// as they are written from the parts of its units.
private enum CalendarBlocks {
  case coded(CodedBlocks)
  case merged(MergedBlocks)

  var isDone: Bool {
    switch self {
    case .coded(let blocks): blocks.isDone
    case .merged(let blocks): blocks.isDone
    }
  }

  /// Appends whole blocks through `cursor` until `limit` instances or more are written or none is
  /// left; returns how many were.
  mutating func append(to cursor: inout Cursor, limit: Int) throws(LMDBError) -> Int {
    switch self {
    case .coded(var blocks):
      defer { self = .coded(blocks) }
      return try blocks.append(to: &cursor, limit: limit)
    case .merged(var blocks):
      defer { self = .merged(blocks) }
      return try blocks.append(to: &cursor, limit: limit)
    }
  }
}
