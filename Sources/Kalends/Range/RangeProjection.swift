internal import LMDB

/// The date-range index: every instance of every event — single events, the occurrences of
/// recurring series up to a horizon, detached occurrences — sorted by calendar and start, so that
/// "what overlaps `[start, end)` in these calendars" is a few cursor seeks (docs/projections.md).
///
/// Databases:
/// - `range.instances`: key ``RangeKey/instance(_:_:start:end:item:occurrence:)``, value
///   `end (8, same clock as the start) ‖ flags (1)`. Zoned events are on UTC seconds; floating and
///   all-day ones on wall-clock seconds, placed in the viewer's zone by the query.
/// - `range.open`: key `calendar (16) ‖ item (16)`, value the event's state: the recurring series
///   that still have occurrences at or after the horizon, expanded lazily by queries past it and
///   materialised further when the horizon moves.
/// - `range.items`: key `item (16) ‖ database (1) ‖ key`: every key an item owns, to remove them.
/// - `range.meta`: the horizon, and the longest ordinary instance per calendar and clock.
///
/// The horizon is January 1 three years after the year of the latest event record (a save or a
/// removal of an event or a calendar), or two years after the latest-starting event's year (at most
/// ten years after the record's). It is derived from the log alone, so a rebuild produces the same
/// bytes; records of other kinds never reach this projection.
struct RangeProjection: Projection {
  static let name = "range"
  static let version: UInt32 = 2
  static let databaseNames = ["range.instances", "range.open", "range.items", "range.meta"]
  static let kinds: Set<RecordKind> = [.eventSaved, .eventRemoved, .calendarRemoved]

  /// Flags of an instance.
  static let recurringFlag: UInt8 = 1
  static let detachedFlag: UInt8 = 2
  static let allDayFlag: UInt8 = 4

  let instances: Database
  let open: Database
  let items: Database
  let meta: Database

  init(databases: [String: Database]) {
    instances = databases["range.instances"]!
    open = databases["range.open"]!
    items = databases["range.items"]!
    meta = databases["range.meta"]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    switch header.kind {
    case .eventSaved:
      let fields = try PayloadReader(bytes: payload)
      let id = try fields.requiredObjectID(1)
      let calendar = try fields.requiredObjectID(2)
      let state = fields.bytes(5) ?? []
      let event = try ModelCodec.decodeEvent(
        id: id, calendarID: calendar, version: header.position, modified: header.timestamp,
        PayloadReader(Payload(bytes: state)))
      try moveHorizon(for: header.timestamp, reaching: event.start, &txn)
      try removeItem(id, &txn)
      try index(event, state: state, horizon: horizon(in: txn), &txn)
    case .eventRemoved:
      try moveHorizon(for: header.timestamp, &txn)
      try removeItem(try PayloadReader(bytes: payload).requiredObjectID(1), &txn)
    case .calendarRemoved:
      try moveHorizon(for: header.timestamp, &txn)
      try removeCalendar(try PayloadReader(bytes: payload).requiredObjectID(1), &txn)
    default:
      break
    }
  }

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
    try txn.value(forKey: Self.horizonKey, in: meta).map { RangeKey.time(in: $0, at: 0) } ?? .min
  }

  /// Moves the horizon forward for a record at `timestamp`, materialising the open series up to it.
  private func moveHorizon(
    for timestamp: Timestamp, reaching start: LocalDateTime? = nil, _ txn: inout WriteTransaction
  ) throws {
    let current = try horizon(in: txn)
    let next = Self.horizon(for: timestamp, reaching: start)
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
      let stillOpen = try materialise(event, from: current, to: next, &txn)
      if !stillOpen {
        _ = try txn.delete(key, in: open)
        _ = try txn.delete(Self.itemKey(id, database: 1, key), in: items)
      }
    }
  }

  // MARK: Indexing

  /// Indexes every instance of `event` before `horizon`, and lists it as open when it goes on.
  private func index(_ event: Event, state: [UInt8], horizon: Int64, _ txn: inout WriteTransaction) throws {
    guard let calendar = event.calendarID, let start = event.start, let end = event.end else { return }
    guard event.isRecurring else {
      let domain = Self.domain(of: event)
      let (from, to) = try Self.times(start, end, of: event)
      let duration = try put(calendar, domain, from, to, event.id, start, event.isAllDay ? Self.allDayFlag : 0, &txn)
      try raiseMaxDuration(calendar, domain, to: duration, &txn)
      return
    }
    for (local, detached) in event.detachedOccurrences {
      guard let detachedStart = detached.start, let detachedEnd = detached.end else { continue }
      let (from, to) = try Self.times(detachedStart, detachedEnd, of: detached)
      let flags = Self.recurringFlag | Self.detachedFlag | (detached.isAllDay ? Self.allDayFlag : 0)
      let domain = Self.domain(of: detached)
      let duration = try put(calendar, domain, from, to, event.id, local, flags, &txn)
      try raiseMaxDuration(calendar, domain, to: duration, &txn)
    }
    if try materialise(event, from: .min, to: horizon, &txn) {
      let key = calendar.bytes + event.id.bytes
      try txn.put(state, forKey: key, in: open)
      try txn.put([UInt8](), forKey: Self.itemKey(event.id, database: 1, key), in: items)
    }
  }

  /// Indexes the occurrences of the series `event` whose start (on its clock) is in `[from, to)`,
  /// except detached ones, and returns whether it has occurrences at or after `to`.
  private func materialise(_ event: Event, from: Int64, to: Int64, _ txn: inout WriteTransaction) throws -> Bool {
    guard let calendar = event.calendarID else { return false }
    let set = try event.recurrenceSet()
    let domain = Self.domain(of: event)
    let flags = Self.recurringFlag | (event.isAllDay ? Self.allDayFlag : 0)
    // On the wall clock the set is read in UTC, so its instants are the wall-clock seconds.
    var longest: Int64 = 0
    for occurrence in set.occurrences(from: from, to: to) {
      guard occurrence.start >= from, occurrence.start < to else { continue }
      guard event.detachedOccurrences[occurrence.local] == nil else { continue }
      let duration = try put(
        calendar, domain, occurrence.start, occurrence.end, event.id, occurrence.local, flags, &txn)
      longest = max(longest, duration)
    }
    try raiseMaxDuration(calendar, domain, to: longest, &txn)
    return set.occurrences(from: to, to: .max).contains { $0.start >= to }
  }

  /// Writes one instance and its reverse entry; returns its duration when it is ordinary (class 0),
  /// else 0, for ``raiseMaxDuration(_:_:to:_:)``.
  private func put(
    _ calendar: ObjectID, _ domain: RangeKey.Domain, _ start: Int64, _ end: Int64, _ item: ObjectID,
    _ occurrence: LocalDateTime, _ flags: UInt8, _ txn: inout WriteTransaction
  ) throws -> Int64 {
    let key = RangeKey.instance(calendar, domain, start: start, end: end, item: item, occurrence: occurrence)
    var value: [UInt8] = []
    value.reserveCapacity(9)
    RangeKey.append(end, to: &value)
    value.append(flags)
    try txn.put(value, forKey: key, in: instances)
    try txn.put([UInt8](), forKey: Self.itemKey(item, database: 0, key), in: items)
    return RangeKey.durationClass(end - start) == 0 ? end - start : 0
  }

  /// Raises the longest ordinary duration kept for `calendar` on `domain`'s clock to `duration`
  /// (once per event or series, not per instance).
  private func raiseMaxDuration(
    _ calendar: ObjectID, _ domain: RangeKey.Domain, to duration: Int64, _ txn: inout WriteTransaction
  ) throws {
    guard duration > 0 else { return }
    let statKey = Self.maxDurationKey(calendar, domain)
    let current = try txn.value(forKey: statKey, in: meta).map { RangeKey.time(in: $0, at: 0) } ?? 0
    guard duration > current else { return }
    var encoded: [UInt8] = []
    RangeKey.append(duration, to: &encoded)
    try txn.put(encoded, forKey: statKey, in: meta)
  }

  /// The clock of an event's instances.
  static func domain(of event: Event) -> RangeKey.Domain {
    event.timeZone == nil || event.isAllDay ? .wallClock : .absolute
  }

  /// Start and end of an event on its clock.
  static func times(_ start: LocalDateTime, _ end: LocalDateTime, of event: Event) throws -> (Int64, Int64) {
    guard domain(of: event) == .absolute, let name = event.timeZone else {
      return (start.wallClockSeconds, end.wallClockSeconds)
    }
    let zone = try ZoneRules.named(name)
    return (zone.resolve(start), max(zone.resolve(start), zone.resolve(end)))
  }

  // MARK: Removal

  /// Removes every key `id` owns.
  private func removeItem(_ id: ObjectID, _ txn: inout WriteTransaction) throws {
    let owned = try txn.withCursor(on: items) { try $0.keys(withPrefix: id.bytes) }
    for key in owned {
      let target = Array(key[17...])
      _ = try txn.delete(target, in: key[16] == 0 ? instances : open)
      _ = try txn.delete(key, in: items)
    }
  }

  /// Removes every item of `calendar`.
  private func removeCalendar(_ calendar: ObjectID, _ txn: inout WriteTransaction) throws {
    var ids = Set<ObjectID>()
    for (database, offset) in [(instances, RangeKey.itemOffset), (open, 16)] {
      let keys = try txn.withCursor(on: database) { try $0.keys(withPrefix: calendar.bytes) }
      for key in keys { ids.insert(ObjectID(bytes: key[offset..<offset + 16])!) }
    }
    for id in ids { try removeItem(id, &txn) }
    for domain in [RangeKey.Domain.absolute, .wallClock] {
      _ = try txn.delete(Self.maxDurationKey(calendar, domain), in: meta)
    }
  }

  // MARK: Keys

  static func itemKey(_ item: ObjectID, database: UInt8, _ key: [UInt8]) -> [UInt8] {
    item.bytes + [database] + key
  }

  static func maxDurationKey(_ calendar: ObjectID, _ domain: RangeKey.Domain) -> [UInt8] {
    Array("maxDuration".utf8) + calendar.bytes + [domain.rawValue]
  }
}
