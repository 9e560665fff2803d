internal import LMDB

extension EventStore {
  /// The events and occurrences overlapping the predicate's window, as index entries, sorted by
  /// start, then identifier, then occurrence.
  public func instances(matching predicate: EventPredicate) throws(StoreError) -> [EventInstance] {
    let range = try rangeProjection()
    return try readItems(.calendars, "query events", hidden: []) { txn, objects, uses in
      let calendars = try queriedCalendars(predicate, objects, in: txn)
      uses.touch(calendars)
      let query = RangeQuery(range: range, from: predicate.start, to: predicate.end, zone: predicate.viewerZone)
      let birthdays =
        try birthdays(in: calendars, objects, txn)?.instances(
          from: predicate.start, to: predicate.end, zone: predicate.viewerZone, in: txn, noting: uses) ?? []
      return Self.merged(try query.instances(in: calendars, txn), birthdays)
    }
  }

  /// The calendars a predicate names, or when it names none every event calendar, in the snapshot
  /// `txn`.
  private func queriedCalendars(
    _ predicate: EventPredicate, _ objects: ObjectProjection, in txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    guard predicate.calendars.isEmpty else {
      guard let scope = try calendarScope(in: txn) else { return predicate.calendars }
      return predicate.calendars.filter(scope.contains)
    }
    return try visibleCalendars(for: .events, objects, in: txn).map(\.id)
  }

  /// Calls `body` with each instance overlapping the predicate's window, in the order of
  /// ``instances(matching:)``, without building the whole list: the window is read a week at a
  /// time. Return `false` from `body` to stop. All of it is read from one snapshot.
  public func enumerateInstances(
    matching predicate: EventPredicate, _ body: (EventInstance) throws -> Bool
  ) throws(StoreError) {
    try enumerateInstances(matching: predicate) { instance, _ in try body(instance) }
  }

  /// ``enumerateInstances(matching:_:)``, lending `body` the snapshot it reads from, so that it can
  /// read more without opening a transaction inside another (which fails when another process grew
  /// the map meanwhile).
  func enumerateInstances(
    matching predicate: EventPredicate, _ body: (EventInstance, borrowing ReadTransaction) throws -> Bool
  ) throws(StoreError) {
    let range = try rangeProjection()
    // The instances reach `body` while the snapshot is open — the store server sends them on as
    // they come — so the read is recorded before, from a snapshot of its own: the answer never
    // leaves ahead of its record.
    try askImplicitly(.calendars, reading: true)
    try read { txn, objects, uses in
      guard try sees(.calendars, "query events", in: txn, noting: uses) else { return }
      let calendars = try queriedCalendars(predicate, objects, in: txn)
      uses.touch(calendars)
      if let state = try birthdays(in: calendars, objects, txn)?.scope.state {
        uses.note(.contacts, "read birthdays", state)
      }
    }
    try readItems(.calendars, "query events", hidden: (), records: false) { txn, objects, _ in
      let calendars = try queriedCalendars(predicate, objects, in: txn)
      let reader = try birthdays(in: calendars, objects, txn)
      var sliceStart = predicate.start
      var sliceLength = Self.slice
      while sliceStart < predicate.end {
        let sliceEnd = min(predicate.end, sliceStart.saturatingAdd(sliceLength))
        let query = RangeQuery(
          range: range, from: sliceStart == predicate.start ? predicate.start : sliceStart, to: sliceEnd,
          zone: predicate.viewerZone)
        let birthdays =
          try reader?.instances(from: query.from, to: sliceEnd, zone: predicate.viewerZone, in: txn, noting: nil) ?? []
        var slice = Self.merged(try query.instances(in: calendars, txn), birthdays)
        // An instance belongs to the slice it starts in; the first slice also takes those running into it.
        if sliceStart != predicate.start { slice.removeAll { $0.start < sliceStart } }
        for instance in slice where !(try body(instance, txn)) { return }
        sliceStart = sliceEnd
        // An empty slice doubles the next one, up to 16 weeks, so that a window of centuries over
        // sparse series (or a rule that never matches) costs few expansions; instances reset it.
        sliceLength = slice.isEmpty ? min(sliceLength.saturatingAdd(sliceLength), 16 * Self.slice) : Self.slice
      }
    }
  }

  /// The events and occurrences overlapping the predicate's window, sorted like
  /// ``instances(matching:)``: single events as stored, occurrences of a series with their own
  /// times and ``Event/occurrenceDate``, detached occurrences with their own fields.
  public func events(matching predicate: EventPredicate) throws(StoreError) -> [Event] {
    var results: [Event] = []
    try enumerateEvents(matching: predicate) { event in
      results.append(event)
      return true
    }
    return results
  }

  /// Calls `body` with each event or occurrence of ``events(matching:)`` in order, a week of the
  /// window at a time. Return `false` to stop.
  public func enumerateEvents(matching predicate: EventPredicate, _ body: (Event) throws -> Bool) throws(StoreError) {
    // Each series is decoded once for all its occurrences and kept by reference, so that an
    // occurrence is one copy of it, not also one out of the table. A single event is reported
    // once: it is decoded and handed on without being kept.
    var series: [ObjectID: DecodedSeries] = [:]
    let objects = try objects()
    try enumerateInstances(matching: predicate) { instance, txn in
      if instance.calendarID == BirthdaysCalendar.id {
        let decoded: DecodedSeries
        if let known = series[instance.id] {
          decoded = known
        } else {
          guard let found = try birthdaySeries(instance.id, objects, in: txn, noting: nil) else { return true }
          decoded = DecodedSeries(found)
          series[instance.id] = decoded
        }
        guard
          let occurrence = try SeriesEditor.occurrence(of: decoded.event, at: instance.occurrenceDate, checked: false)
        else { return true }
        return try body(occurrence)
      }
      guard instance.isRecurring else {
        guard let stored = try objects.state(.event, instance.id, in: txn), stored.isLive else { return true }
        return try body(Self.decodeEvent(instance.id, stored))
      }
      let decoded: DecodedSeries
      if let known = series[instance.id] {
        decoded = known
      } else {
        guard let stored = try objects.state(.event, instance.id, in: txn), stored.isLive else { return true }
        decoded = DecodedSeries(try Self.decodeEvent(instance.id, stored))
        series[instance.id] = decoded
      }
      guard
        let occurrence = try SeriesEditor.occurrence(of: decoded.event, at: instance.occurrenceDate, checked: false)
      else { return true }
      return try body(occurrence)
    }
  }

  /// The length of the slices a window is read in.
  static let slice: Int64 = 7 * 86_400

  /// The date-range index.
  func rangeProjection() throws(StoreError) -> RangeProjection {
    try store.projection(RangeProjection.self)
  }
}

/// A series decoded by ``EventStore/enumerateEvents(matching:_:)``, shared by its occurrences.
private final class DecodedSeries {
  let event: Event

  init(_ event: Event) { self.event = event }
}
