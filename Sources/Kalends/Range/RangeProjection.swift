internal import LMDB

/// The date-range index: every instance of every event — single events, the occurrences of
/// recurring series up to a horizon, detached occurrences — sorted by calendar and start, so that
/// "what overlaps `[start, end)` in these calendars" is a few cursor seeks (docs/projections.md).
///
/// Databases:
/// - `range.instances`: the instances of each run (calendar, clock, duration class) in blocks of
///   records `start ‖ item ‖ occurrence ‖ end ‖ flags`, keyed by the run and the last record's key
///   (``InstanceBlocks``), each record coded against the one before (``InstanceBlockCodec``).
///   Zoned events are on UTC seconds; floating and all-day ones on wall-clock seconds, placed in
///   the viewer's zone by the query.
/// - `range.open`: key `calendar (16) ‖ item (16)`, value the event's timing state (`RangeState`:
///   what places its instances, no text): the recurring series that still have occurrences at or
///   after the horizon, expanded lazily by queries past it and materialised further when the
///   horizon moves.
/// - `range.items`: key `item (16)`, value `calendar (16) ‖ the event's timing state`, for every
///   item that owns keys in `range.instances` or `range.open`: a save or removal recomputes the
///   item's keys from it (``RangeItemEntries``) to delete them.
/// - `range.meta`: the horizon, and the longest instance per calendar, clock and duration class.
///
/// The horizon is January 1 three years after the year of the latest event record (a save or a
/// removal of an event or a calendar), or two years after the latest-starting event's year (at most
/// ten years after the record's). It is derived from the log alone, so a rebuild produces the same
/// bytes; records of other kinds never reach this projection.
struct RangeProjection: Projection {
  static let name = "range"
  static let version: UInt32 = 7
  /// The names of the LMDB databases it owns: see the type's documentation for what each holds.
  enum DatabaseName {
    static let instances = "range.instances"
    static let open = "range.open"
    static let items = "range.items"
    static let meta = "range.meta"
  }
  static let databaseNames = [DatabaseName.instances, DatabaseName.open, DatabaseName.items, DatabaseName.meta]
  static let kinds: Set<RecordKind> = [.eventSaved, .eventRemoved, .calendarRemoved, .contentErased]

  /// Flags of an instance.
  static let recurringFlag: UInt8 = 1
  static let detachedFlag: UInt8 = 2
  static let allDayFlag: UInt8 = 4

  let instances: Database
  let open: Database
  let items: Database
  let meta: Database

  init(databases: [String: Database], log: Database) {
    instances = databases[DatabaseName.instances]!
    open = databases[DatabaseName.open]!
    items = databases[DatabaseName.items]!
    meta = databases[DatabaseName.meta]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    switch header.kind {
    case .eventSaved where header.content != .present:
      // Erased: what placed its instances is gone. The event was removed before it was erased, so
      // it has no instances left; what it did to the bounds, the erasure's record restores.
      try moveHorizon(for: header.timestamp, &txn)
      try removeItem(try PayloadReader(bytes: payload).requiredObjectID(1), horizon: horizon(in: txn), &txn)
    case .eventSaved:
      var state: [UInt8] = []
      let (id, calendar, _, _) = try RangeState.saved(payload, appendingTimingTo: &state)
      let event = try ModelCodec.decodeEvent(
        id: id, calendarID: calendar, version: header.position, modified: header.timestamp,
        PayloadReader(Payload(bytes: state)))
      try moveHorizon(for: header.timestamp, reaching: event.start, &txn)
      let horizon = try horizon(in: txn)
      try removeItem(id, horizon: horizon, &txn)
      try index(event, state: state, horizon: horizon, &txn)
    case .eventRemoved:
      try moveHorizon(for: header.timestamp, &txn)
      try removeItem(try PayloadReader(bytes: payload).requiredObjectID(1), horizon: horizon(in: txn), &txn)
    case .calendarRemoved:
      try moveHorizon(for: header.timestamp, &txn)
      try removeCalendar(try PayloadReader(bytes: payload).requiredObjectID(1), &txn)
    case .contentErased:
      guard let recorded = try RangeBounds(payload: payload) else { return }
      if let horizon = recorded.horizon { try moveHorizon(to: horizon, &txn) }
      for bound in recorded.bounds {
        guard let domain = RangeKey.Domain(rawValue: bound.domain) else {
          throw StoreError.malformedPayload("an index bound has the unknown clock \(bound.domain)")
        }
        try raiseLongest(
          bound.calendar, RunKey(domain: domain, durationClass: bound.durationClass), to: bound.seconds, &txn)
      }
    default:
      break
    }
  }

  func makeBulkLoader() -> (any ProjectionBulkLoader)? { RangeBulkLoader(self) }

  // MARK: Horizon

  static let horizonKey = Array("horizon".utf8)

  /// The horizon for a record appended at `timestamp` saving an event that starts at `start`:
  /// January 1 three years after the record's year, or two years after the event's year when that is
  /// later — but never more than ten years after the record's, so that one event in a far future
  /// does not materialise every open series up to it (queries past the horizon expand lazily).
  static func horizon(for timestamp: Timestamp, reaching start: LocalDateTime? = nil) -> Int64 {
    let seconds = timestamp.rawValue.floorDividedWithRemainder(by: 1_000_000).quotient
    let year = LocalDateTime(wallClockSeconds: seconds)?.year ?? 9_989
    let reached = start.map { min(max($0.year + 2, year + 3), year + 10) } ?? year + 3
    return LocalDateTime(year: min(reached, 9_999), month: 1, day: 1)!.wallClockSeconds
  }

  /// The stored horizon; `Int64.min` before the first record. Read in place: every record appended
  /// reads it, and a copy would be an allocation per record.
  func horizon(in txn: borrowing WriteTransaction) throws -> Int64 {
    try txn.withValue(forKey: Self.horizonKey, in: meta) { RangeKey.time(in: $0, at: 0) } ?? .min
  }

  /// The stored horizon; `Int64.min` before the first record.
  func horizon(in txn: borrowing ReadTransaction) throws -> Int64 {
    try txn.withValue(forKey: Self.horizonKey, in: meta) { RangeKey.time(in: $0, at: 0) } ?? .min
  }

  /// Moves the horizon forward for a record at `timestamp`, materialising the open series up to it.
  private func moveHorizon(
    for timestamp: Timestamp, reaching start: LocalDateTime? = nil, _ txn: inout WriteTransaction
  ) throws {
    try moveHorizon(to: Self.horizon(for: timestamp, reaching: start), &txn)
  }

  /// Moves the horizon forward to `next` (when it is later), materialising the open series up to it.
  private func moveHorizon(to next: Int64, _ txn: inout WriteTransaction) throws {
    let current = try horizon(in: txn)
    guard next > current else { return }
    var encoded: [UInt8] = []
    RangeKey.append(next, to: &encoded)
    try txn.put(encoded, forKey: Self.horizonKey, in: meta)
    var series: [(key: [UInt8], state: [UInt8])] = []
    try txn.withCursor(on: open) { cursor in
      guard try cursor.first() else { return }
      try cursor.scanForward { key, value in
        series.append((Array(copying: key), Array(copying: value)))
        return .continue
      }
    }
    for (key, state) in series {
      let calendar = ObjectID(bytes: key[0..<16])!
      let id = ObjectID(bytes: key[16..<32])!
      let event = try ModelCodec.decodeEvent(
        id: id, calendarID: calendar, version: .none, modified: nil, PayloadReader(Payload(bytes: state)))
      var added: [RangeItemEntries.Instance] = []
      let stillOpen = try RangeItemEntries.occurrences(of: event, from: current, to: next, into: &added)
      try put(added, calendar: calendar, item: id, &txn)
      if !stillOpen {
        _ = try txn.delete(key, in: open)
        if try !RangeItemEntries.hasInstances(event, before: next) { _ = try txn.delete(id.bytes, in: items) }
      }
    }
  }

  // MARK: Indexing

  /// Indexes every instance of `event` before `horizon`, lists it as open when it goes on, and
  /// keeps its state in `range.items` when it owns a key.
  private func index(_ event: Event, state: [UInt8], horizon: Int64, _ txn: inout WriteTransaction) throws {
    guard let entries = try RangeItemEntries(event, horizon: horizon) else { return }
    try put(entries.instances, calendar: entries.calendar, item: event.id, &txn)
    if entries.isOpen { try txn.put(state, forKey: entries.calendar.bytes + event.id.bytes, in: open) }
    if entries.isOpen || !entries.instances.isEmpty {
      try txn.put(entries.calendar.bytes + state, forKey: event.id.bytes, in: items)
    }
  }

  /// Writes instances of `item` and raises the longest duration of each run they fall in.
  private func put(
    _ added: [RangeItemEntries.Instance], calendar: ObjectID, item: ObjectID, _ txn: inout WriteTransaction
  ) throws {
    var longest: [RunKey: Int64] = [:]
    for instance in added {
      let record = InstanceBlocks.record(
        start: instance.start, item: item, occurrence: instance.occurrence, end: instance.end, flags: instance.flags)
      try InstanceBlocks.edit(
        record, in: RangeKey.run(calendar, instance.domain, instance.durationClass), removing: false, instances, &txn)
      let run = RunKey(domain: instance.domain, durationClass: instance.durationClass)
      longest[run] = max(longest[run] ?? 0, instance.end - instance.start)
    }
    for (run, duration) in longest { try raiseLongest(calendar, run, to: duration, &txn) }
  }

  /// Raises every run's longest instance to its coarse value (``RangeBounds/coarsened``) and
  /// returns the bounds then, for a `contentErased` record: what the replay of that record raises
  /// the bounds to is what the store holds.
  func coarsenBounds(_ txn: inout WriteTransaction) throws -> RangeBounds {
    let coarse = try RangeBounds.stored(meta: meta, in: txn).coarsened
    for bound in coarse.bounds {
      guard let domain = RangeKey.Domain(rawValue: bound.domain) else { continue }
      try raiseLongest(
        bound.calendar, RunKey(domain: domain, durationClass: bound.durationClass), to: bound.seconds, &txn)
    }
    return coarse
  }

  /// Raises the longest instance of a run to `duration` when it is shorter.
  private func raiseLongest(_ calendar: ObjectID, _ run: RunKey, to duration: Int64, _ txn: inout WriteTransaction)
    throws
  {
    let statKey = Self.maxDurationKey(calendar, run.domain, run.durationClass)
    let current = try txn.withValue(forKey: statKey, in: meta) { RangeKey.time(in: $0, at: 0) }
    if let current, current >= duration { return }
    var encoded: [UInt8] = []
    RangeKey.append(duration, to: &encoded)
    try txn.put(encoded, forKey: statKey, in: meta)
  }

  /// A clock and a duration class: with a calendar, one run of `range.instances`.
  struct RunKey: Hashable {
    let domain: RangeKey.Domain
    let durationClass: UInt8
  }

  /// The clock of an event's instances.
  static func domain(of event: Event) -> RangeKey.Domain {
    event.timeZone == nil || event.isAllDay ? .wallClock : .absolute
  }

  /// Start and end of an event on its clock.
  static func times(_ start: LocalDateTime, _ end: LocalDateTime, of event: Event) throws -> (Int64, Int64) {
    guard domain(of: event) == .absolute, let name = event.timeZone else { return times(start, end, in: nil) }
    return times(start, end, in: try ZoneRules.named(name))
  }

  /// Start and end on the clock of `zone`'s instants, or on the wall clock when `zone` is `nil` (a
  /// floating or all-day event); the end never before the start.
  static func times(_ start: LocalDateTime, _ end: LocalDateTime, in zone: ZoneRules?) -> (Int64, Int64) {
    guard let zone else { return (start.wallClockSeconds, end.wallClockSeconds) }
    let from = zone.resolve(start)
    return (from, max(from, zone.resolve(end)))
  }

  // MARK: Removal

  /// Removes every key `id` owns, recomputed from its state in `range.items` up to `horizon` (every
  /// open series is materialised up to the current horizon).
  private func removeItem(_ id: ObjectID, horizon: Int64, _ txn: inout WriteTransaction) throws {
    guard let stored = try txn.value(forKey: id.bytes, in: items) else { return }
    let calendar = ObjectID(bytes: stored[0..<16])!
    let event = try ModelCodec.decodeEvent(
      id: id, calendarID: calendar, version: .none, modified: nil, PayloadReader(Payload(bytes: Array(stored[16...]))))
    if let entries = try RangeItemEntries(event, horizon: horizon) {
      for instance in entries.instances {
        let record = InstanceBlocks.record(
          start: instance.start, item: id, occurrence: instance.occurrence, end: instance.end, flags: instance.flags)
        try InstanceBlocks.edit(
          record, in: RangeKey.run(calendar, instance.domain, instance.durationClass), removing: true, instances, &txn)
      }
    }
    _ = try txn.delete(calendar.bytes + id.bytes, in: open)
    _ = try txn.delete(id.bytes, in: items)
  }

  /// Removes every item of `calendar`: its instances, its open series, their states and its
  /// longest durations.
  private func removeCalendar(_ calendar: ObjectID, _ txn: inout WriteTransaction) throws {
    var ids = Set<ObjectID>()
    var blocks: [[UInt8]] = []
    try txn.withCursor(on: instances) { cursor in
      guard try cursor.seek(atLeast: calendar.bytes) else { return }
      try cursor.scanForward { key, value in
        guard key.withUnsafeBytes({ $0.starts(with: calendar.bytes) }) else { return .stop }
        blocks.append(Array(copying: key))
        value.withUnsafeBytes { block in
          var reader = InstanceBlockCodec.Reader(block)
          while let record = reader.next() { ids.insert(record.item) }
        }
        return .continue
      }
    }
    for key in blocks { _ = try txn.delete(key, in: instances) }
    let series = try txn.withCursor(on: open) { try $0.keys(withPrefix: calendar.bytes) }
    for key in series {
      ids.insert(ObjectID(bytes: key[16..<32])!)
      _ = try txn.delete(key, in: open)
    }
    for id in ids { _ = try txn.delete(id.bytes, in: items) }
    let stats = try txn.withCursor(on: meta) { try $0.keys(withPrefix: Self.maxDurationPrefix + calendar.bytes) }
    for key in stats { _ = try txn.delete(key, in: meta) }
  }

  // MARK: Keys

  static let maxDurationPrefix = Array("maxDuration".utf8)

  /// `maxDuration ‖ calendar (16) ‖ clock (1) ‖ class (1)`: the longest instance of that run.
  static func maxDurationKey(_ calendar: ObjectID, _ domain: RangeKey.Domain, _ durationClass: UInt8) -> [UInt8] {
    maxDurationPrefix + calendar.bytes + [domain.rawValue, durationClass]
  }
}
