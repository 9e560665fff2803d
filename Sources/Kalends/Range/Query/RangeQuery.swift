internal import LMDB

/// Answers "what overlaps `[from, to)` in this calendar" from the date-range index, inside one
/// read snapshot.
///
/// Per calendar, clock and duration class: one seek at `from` minus the longest instance of that run
/// (so nothing that started earlier and still runs is missed) and a scan to `to`; runs that never
/// held an instance are skipped. Wall-clock instances are scanned with a
/// margin wider than any UTC offset and then placed exactly in the viewer's zone. Past the horizon
/// the open series are expanded lazily.
struct RangeQuery {
  let range: RangeProjection
  let from: Int64
  let to: Int64
  let zone: ZoneRules

  /// More than the widest UTC offset (±14 h, rounded up generously).
  static let zoneMargin: Int64 = 26 * 3_600

  /// One run of the index: a calendar's instances on one clock in one duration class, in key order.
  private struct Run {
    let domain: RangeKey.Domain
    let durationClass: UInt8
    /// The longest instance of the run, in seconds.
    let longest: Int64
  }

  /// The instances of `calendars` that overlap the window, in the order of
  /// ``EventInstance/precedes(_:_:)``.
  ///
  /// Per calendar, the small runs (long events, wall-clock ones, the open series past the horizon)
  /// are read first; the run of short zoned events, nearly all of a calendar, is then read straight
  /// into the result. For one or two calendars the small runs are merged and merged into it on the
  /// way, so it is copied only once and nothing is sorted. With more, whose results interleave, the
  /// small runs are appended as they are and the whole is put in order once
  /// (``InstanceRuns/ordered(_:)``, a radix sort): merging per calendar would be wasted.
  func instances(in calendars: [ObjectID], _ txn: borrowing ReadTransaction) throws -> [EventInstance] {
    guard from < to else { return [] }
    let gathering = calendars.count > 2
    let horizon = try range.horizon(in: txn)
    var results: [EventInstance] = []
    var calendarEnds: [Int] = []
    calendarEnds.reserveCapacity(calendars.count)
    let runCount = 2 * Int(RangeKey.classCount)
    var runs: [Run] = []
    runs.reserveCapacity(runCount)
    var side: [EventInstance] = []
    side.reserveCapacity(64)
    var sideEnds: [Int] = []
    sideEnds.reserveCapacity(runCount + 1)
    for (position, calendar) in calendars.enumerated() {
      runs.removeAll(keepingCapacity: true)
      side.removeAll(keepingCapacity: true)
      sideEnds.removeAll(keepingCapacity: true)
      try longestDurations(of: calendar, txn, into: &runs)
      if to.saturatingAdd(Self.zoneMargin) > horizon {
        try expandOpenSeries(in: calendar, after: horizon, txn, into: &side)
        sideEnds.append(side.count)
      }
      if runs.isEmpty {
        results.append(contentsOf: gathering ? side : InstanceRuns.merged(side, runEnds: sideEnds))
      } else {
        let main = runs.firstIndex { $0.domain == .absolute && $0.durationClass == 0 } ?? 0
        try txn.withCursor(on: range.instances) { cursor in
          var unused = 0
          var none = ResultCapacity.none
          for index in runs.indices where index != main {
            try scan(runs[index], of: calendar, &cursor, into: &side, mergingIn: [], at: &unused, sizing: &none)
            sideEnds.append(side.count)
          }
          let small = gathering ? side : InstanceRuns.merged(side, runEnds: sideEnds)
          var next = 0
          var sizing = ResultCapacity(
            from: from, to: to, calendarStart: results.count, calendarsAfter: calendars.count - 1 - position)
          try scan(
            runs[main], of: calendar, &cursor, into: &results, mergingIn: gathering ? [] : small, at: &next,
            sizing: &sizing)
          results.append(contentsOf: small[next...])
        }
      }
      calendarEnds.append(results.count)
    }
    return gathering
      ? InstanceRuns.ordered(results) : InstanceRuns.merged(results, runEnds: calendarEnds, sorted: true)
  }

  /// Appends the instances of one run that overlap the window to `results`, with those of `side`
  /// (sorted) from `next` on that precede each merged in before it; `sizing` reserves the result's
  /// room on the way.
  private func scan(
    _ run: Run, of calendar: ObjectID, _ cursor: inout Cursor, into results: inout [EventInstance],
    mergingIn side: [EventInstance], at next: inout Int, sizing: inout ResultCapacity
  ) throws {
    let domain = run.domain
    let margin = domain == .absolute ? 0 : Self.zoneMargin
    let upper = to.saturatingAdd(margin)
    let seek = RunSeekKey(calendar, domain, run.durationClass, start: from.saturatingAdd(-(margin + run.longest)))
    guard try cursor.seek(atLeast: seek) else { return }
    let (high, low) = (calendar.high, calendar.low)
    let tail = UInt16(domain.rawValue) << 8 | UInt16(run.durationClass)
    let (from, to, zone) = (self.from, self.to, self.zone)
    _ = try cursor.scanForward { key, value in
      guard key.byteCount == InstanceBlocks.blockKeyLength,
        UInt64(bigEndian: key.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)) == high,
        UInt64(bigEndian: key.unsafeLoadUnaligned(fromByteOffset: 8, as: UInt64.self)) == low,
        UInt16(bigEndian: key.unsafeLoadUnaligned(fromByteOffset: 16, as: UInt16.self)) == tail
      else { return .stop }
      // A damaged block is read as far as its whole records go.
      return value.withUnsafeBytes { block in
        var reader = InstanceBlockCodec.Reader(block)
        while let record = reader.next() {
          guard record.start < upper else { return .stop }
          if record.start >= sizing.checkpoint { sizing.reserve(&results, reaching: record.start) }
          let start = domain == .absolute ? record.start : zone.resolve(wallClock: record.start)
          let end = domain == .absolute ? record.end : max(start, zone.resolve(wallClock: record.end))
          guard Self.overlaps(start, end, from, to) else { continue }
          let flags = record.flags
          let instance = EventInstance(
            id: record.item, calendarID: calendar, occurrenceDate: LocalDateTime(unchecked: record.occurrence),
            start: start, end: end, isRecurring: flags & RangeProjection.recurringFlag != 0,
            isDetached: flags & RangeProjection.detachedFlag != 0,
            isAllDay: flags & RangeProjection.allDayFlag != 0)
          while next < side.count, EventInstance.precedes(side[next], instance) {
            results.append(side[next])
            next += 1
          }
          results.append(instance)
        }
        return .continue
      }
    }
  }

  /// The occurrences of `calendar`'s open series that start (on their clock) at or after the
  /// horizon and overlap the window.
  private func expandOpenSeries(
    in calendar: ObjectID, after horizon: Int64, _ txn: borrowing ReadTransaction,
    into results: inout [EventInstance]
  ) throws {
    var series: [(ObjectID, [UInt8])] = []
    try txn.withCursor(on: range.open) { cursor in
      guard try cursor.seek(atLeast: calendar.bytes) else { return }
      _ = try cursor.scanForward { key, value in
        guard key.byteCount == 32, ObjectID(key, at: 0) == calendar else { return .stop }
        series.append((ObjectID(key, at: 16), Array(copying: value)))
        return .continue
      }
    }
    for (id, state) in series {
      let event = try ModelCodec.decodeEvent(
        id: id, calendarID: calendar, version: .none, modified: nil, PayloadReader(Payload(bytes: state)))
      let domain = RangeProjection.domain(of: event)
      for occurrence in try event.recurrenceSet().occurrences(from: from, to: to, viewerZone: zone) {
        let clock = domain == .absolute ? occurrence.start : occurrence.local.wallClockSeconds
        guard clock >= horizon, event.detachedOccurrences[occurrence.local] == nil else { continue }
        results.append(
          EventInstance(
            id: id, calendarID: calendar, occurrenceDate: occurrence.local, start: occurrence.start,
            end: occurrence.end, isRecurring: true, isDetached: false, isAllDay: event.isAllDay))
      }
    }
  }

  /// The runs of `calendar` that hold instances, in key order, with the longest instance of each,
  /// read from `range.meta` with one seek.
  private func longestDurations(
    of calendar: ObjectID, _ txn: borrowing ReadTransaction, into runs: inout [Run]
  ) throws {
    var prefix = RangeProjection.maxDurationPrefix
    prefix.reserveCapacity(prefix.count + 16)
    withUnsafeBytes(of: calendar.high.bigEndian) { prefix.append(contentsOf: $0) }
    withUnsafeBytes(of: calendar.low.bigEndian) { prefix.append(contentsOf: $0) }
    try txn.withCursor(on: range.meta) { cursor in
      guard try cursor.seek(atLeast: prefix) else { return }
      _ = try cursor.scanForward { key, value in
        guard key.byteCount == prefix.count + 2, key.withUnsafeBytes({ $0.starts(with: prefix) }),
          let domain = RangeKey.Domain(rawValue: key.unsafeLoad(fromByteOffset: prefix.count, as: UInt8.self))
        else { return .stop }
        runs.append(
          Run(
            domain: domain, durationClass: key.unsafeLoad(fromByteOffset: prefix.count + 1, as: UInt8.self),
            longest: RangeKey.time(in: value, at: 0)))
        return .continue
      }
    }
  }

  /// RFC 4791 §9.9: `[start, end)` overlaps `[from, to)`; a zero-length event when `from <= start < to`.
  static func overlaps(_ start: Int64, _ end: Int64, _ from: Int64, _ to: Int64) -> Bool {
    start < to && (end > from || (end == start && start >= from))
  }
}
