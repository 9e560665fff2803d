/// What one event owns in the date-range index up to a horizon: its instances (the single event,
/// or the occurrences of a series that start before the horizon, and every detached occurrence
/// with its own times) and whether it is an open series (with occurrences at or after the horizon).
///
/// The inline projection, the removal of an item (which recomputes the keys from the item's state)
/// and the bulk loader of rebuilds all derive the index from this one computation, so they agree
/// byte for byte.
struct RangeItemEntries {
  /// One instance before it is encoded as a key.
  struct Instance {
    /// The clock of its times.
    var domain: RangeKey.Domain
    /// The start on its clock.
    var start: Int64
    /// The end on its clock.
    var end: Int64
    /// The original wall-clock start (the occurrence's identity), in wall-clock seconds.
    var occurrence: Int64
    /// ``RangeProjection`` flags.
    var flags: UInt8

    /// The duration class of its key.
    var durationClass: UInt8 { RangeKey.durationClass(end - start) }
  }

  /// The calendar the instances are filed under.
  let calendar: ObjectID
  /// The instances, detached occurrences first, then the series' occurrences by start.
  var instances: [Instance] = []
  /// Whether the series has occurrences at or after the horizon.
  var isOpen = false

  /// The entries of `event` with series occurrences starting before `horizon`; `nil` when the event
  /// is not indexed (no calendar, start or end).
  init?(_ event: Event, horizon: Int64) throws {
    var buffer: [Instance] = []
    try self.init(event, horizon: horizon, reusing: &buffer)
  }

  /// The entries of `event`, their instances in `buffer`'s memory (emptied, and left empty): a
  /// rebuild hands the instances of one series to the next instead of growing an array for each.
  init?(_ event: Event, horizon: Int64, reusing buffer: inout [Instance]) throws {
    guard let calendar = event.calendarID, let start = event.start, let end = event.end else { return nil }
    self.calendar = calendar
    buffer.removeAll(keepingCapacity: true)
    swap(&instances, &buffer)
    guard event.isRecurring else {
      let domain = RangeProjection.domain(of: event)
      let (from, to) = try RangeProjection.times(start, end, of: event)
      instances.append(
        Instance(
          domain: domain, start: from, end: to, occurrence: start.wallClockSeconds,
          flags: event.isAllDay ? RangeProjection.allDayFlag : 0))
      return
    }
    for (local, detached) in event.detachedOccurrences.sorted(by: { $0.key < $1.key }) {
      guard let detachedStart = detached.start, let detachedEnd = detached.end else { continue }
      let (from, to) = try RangeProjection.times(detachedStart, detachedEnd, of: detached)
      let flags =
        RangeProjection.recurringFlag | RangeProjection.detachedFlag
        | (detached.isAllDay ? RangeProjection.allDayFlag : 0)
      instances.append(
        Instance(
          domain: RangeProjection.domain(of: detached), start: from, end: to, occurrence: local.wallClockSeconds,
          flags: flags))
    }
    isOpen = try Self.occurrences(of: event, from: .min, to: horizon, into: &instances)
  }

  /// Appends the occurrences of the series `event` whose start (on its clock) is in `[from, to)`,
  /// except detached ones, and returns whether it has occurrences at or after `to`.
  static func occurrences(of event: Event, from: Int64, to: Int64, into instances: inout [Instance]) throws -> Bool {
    let set = try event.recurrenceSet()
    let domain = RangeProjection.domain(of: event)
    let flags = RangeProjection.recurringFlag | (event.isAllDay ? RangeProjection.allDayFlag : 0)
    let detached = event.detachedOccurrences
    // On the wall clock the set is read in UTC, so its instants are the wall-clock seconds. One
    // pass, ascending by start: the first occurrence at or after `to` tells that the series is open
    // (a second pass from `to` would expand a series with `COUNT` from its start again).
    for occurrence in set.occurrences(from: from, to: .max) {
      if occurrence.start >= to { return true }
      guard occurrence.start >= from else { continue }
      guard detached.isEmpty || detached[occurrence.local] == nil else { continue }
      instances.append(
        Instance(
          domain: domain, start: occurrence.start, end: occurrence.end,
          occurrence: occurrence.local.wallClockSeconds, flags: flags))
    }
    return false
  }

  /// Whether the series `event` has an indexed instance (a detached occurrence with times, or an
  /// occurrence starting before `horizon`): whether it owns keys once it is no longer open.
  static func hasInstances(_ event: Event, before horizon: Int64) throws -> Bool {
    if event.detachedOccurrences.values.contains(where: { $0.start != nil && $0.end != nil }) { return true }
    let detached = event.detachedOccurrences
    return try event.recurrenceSet().occurrences(from: .min, to: horizon).contains {
      $0.start < horizon && detached[$0.local] == nil
    }
  }
}
