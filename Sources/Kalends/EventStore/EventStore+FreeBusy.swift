extension EventStore {
  /// When the person is busy between `start` and `end` (UTC seconds) by the events of
  /// `calendars` (every event calendar this session sees when empty): each instance in the window,
  /// from the date-range index, clipped to it, as RFC 4791 §7.10 counts it — a cancelled event or
  /// occurrence and one whose availability is free (`TRANSP:TRANSPARENT`) not at all, a tentative
  /// one as `BUSY-TENTATIVE`, an unavailable one as `BUSY-UNAVAILABLE` — then overlapping and
  /// adjoining periods of the same kind merged, by start. What this session may see: a write-only
  /// session sees nothing (its attempt recorded).
  public func busyPeriods(
    inCalendars calendars: [ObjectID] = [], from start: Int64, to end: Int64
  ) throws(StoreError) -> [BusyPeriod] {
    guard start < end else { return [] }
    let instances = try instances(
      matching: EventPredicate(start: start, end: end, calendars: calendars, viewerZone: .utc))
    var events: [ObjectID: Event?] = [:]
    var periods: [BusyPeriod] = []
    for instance in instances {
      if events[instance.id] == nil { events[instance.id] = .some(try event(withID: instance.id)) }
      guard let series = events[instance.id] ?? nil else { continue }
      let event = series.detachedOccurrences[instance.occurrenceDate] ?? series
      guard event.status != .canceled, event.availability != .free else { continue }
      let kind: BusyPeriod.Kind =
        event.availability == .unavailable
        ? .unavailable : event.availability == .tentative || event.status == .tentative ? .tentative : .busy
      let clipped = BusyPeriod(start: max(start, instance.start), end: min(end, instance.end), kind: kind)
      if clipped.start < clipped.end { periods.append(clipped) }
    }
    var merged: [BusyPeriod] = []
    for kind in BusyPeriod.Kind.allCases {
      for period in periods.filter({ $0.kind == kind }).sorted(by: { $0.start < $1.start }) {
        if let last = merged.last, last.kind == kind, period.start <= last.end {
          merged[merged.count - 1].end = max(last.end, period.end)
        } else {
          merged.append(period)
        }
      }
    }
    return merged.sorted { ($0.start, $0.kind.rawValue) < ($1.start, $1.kind.rawValue) }
  }
}
