extension ICalendar {
  /// The calendar with each series' changed occurrences limited to those that overlap `[from, to)`
  /// (UTC seconds) by where they were or where they are: CalDAV's `limit-recurrence-set` (RFC 4791
  /// §9.6.6). A series keeps its rules, dates and exceptions whole; an occurrence's original place is
  /// its `RECURRENCE-ID` with the series' length, its own its start and end. Floating times and dates
  /// are placed in `floating`, as in ``serialized(expandingFrom:to:floatingIn:productID:stamp:)``.
  public func limitingRecurrenceSets(from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc) -> ICalendar {
    func overlaps(_ start: Int64, _ end: Int64) -> Bool {
      start < to && (end > from || (end == start && start >= from))
    }
    var limited = self
    for index in limited.events.indices where !limited.events[index].detachedOccurrences.isEmpty {
      let series = limited.events[index]
      let zone = series.timeZoneRules ?? floating
      var length: Int64 = 0
      if let start = series.start, let end = series.end { length = zone.resolve(end) - zone.resolve(start) }
      limited.events[index].detachedOccurrences = series.detachedOccurrences.filter { original, occurrence in
        let originalStart = zone.resolve(original)
        if overlaps(originalStart, originalStart + length) { return true }
        guard let start = occurrence.start, let end = occurrence.end else { return false }
        let own = occurrence.timeZoneRules ?? floating
        return overlaps(own.resolve(start), own.resolve(end))
      }
    }
    return limited
  }
}
