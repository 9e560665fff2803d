extension Event {
  /// Whether an instance of the event overlaps `[from, to)` (UTC seconds; floating times and dates
  /// placed in `floating`, UTC unless given) as RFC 4791 §9.9 judges a `VEVENT`: one that starts
  /// before `to` and ends after `from`, or, lasting no time, starts at or after `from`. A series is
  /// judged by its occurrences (not by its first), so a finished series is outside a window that
  /// opens after it, even one with no end: give `to` as `Int64.max` for an open-ended window.
  /// Computed lazily: the answer is found at the first instance that overlaps.
  public func overlaps(from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc) -> Bool {
    guard isRecurring else {
      guard let (start, end) = placed(floatingIn: floating) else { return true }
      return Self.overlaps(start, end, from: from, to: to)
    }
    guard let set = try? SeriesEditor.recurrenceSet(of: self) else { return true }
    // The recurrence's iterator works in instants it can offset by a zone: time is taken to run
    // from year 1 to the last second of year 9999, not from `Int64.min` to `Int64.max`.
    let (begin, end) = (max(from, -62_135_596_800), min(to, 253_402_300_799))
    let found =
      begin < end
      && set.occurrences(from: begin, to: end, viewerZone: floating).contains {
        detachedOccurrences[$0.local] == nil
      }
    return found
      || detachedOccurrences.values.contains { detached in
        guard let (start, end) = detached.placed(floatingIn: floating) else { return false }
        return Self.overlaps(start, end, from: from, to: to)
      }
  }

  /// Whether an instance from `start` to `end` (UTC seconds) overlaps `[from, to)` as RFC 4791
  /// §9.9 judges a `VEVENT`: it starts before `to` and ends after `from`, or, lasting no time,
  /// starts at or after `from`.
  static func overlaps(_ start: Int64, _ end: Int64, from: Int64, to: Int64) -> Bool {
    start < to && (end > from || (end == start && start >= from))
  }

  /// Where this event (or one of its instances) falls, in UTC seconds: its times in its zone, or,
  /// floating and all-day, in `floating`; `nil` without a start and an end.
  func placed(floatingIn floating: ZoneRules) -> (start: Int64, end: Int64)? {
    guard let start, let end else { return nil }
    let rules = timeZoneRules ?? floating
    return (rules.resolve(start), rules.resolve(end))
  }
}
