/// The series arithmetic behind EventKit's spans: which wall-clock starts are occurrences of a
/// stored event, how a series ends before one of them, how it continues from one, and how its
/// exceptions follow when it moves.
enum SeriesEditor {
  /// The recurrence set of a validated event (a single event: one occurrence).
  static func recurrenceSet(of event: Event) throws(StoreError) -> RecurrenceSet {
    guard let start = event.start, let end = event.end else { throw .calendar(.noStartDate) }
    let zone: ZoneRules?
    do {
      zone = try event.timeZone.map { zone throws(ZoneRulesError) in try ZoneRules.named(zone) }
    } catch {
      throw .calendar(.invalidTimeZone(event.timeZone ?? ""))
    }
    let duration =
      zone.map { $0.resolve(end) - $0.resolve(start) } ?? (end.wallClockSeconds - start.wallClockSeconds)
    do {
      return try RecurrenceSet(
        start: start, isAllDay: event.isAllDay, zone: zone, duration: max(0, duration),
        rules: event.recurrenceRules, recurrenceDates: event.recurrenceDates, exceptionDates: event.exceptionDates)
    } catch {
      throw .calendar(.invalidRecurrenceRule(error.description))
    }
  }

  /// Whether `local` is the original start of an occurrence of `series` (not an exception date).
  static func isOccurrence(_ local: LocalDateTime, of series: Event) throws(StoreError) -> Bool {
    try recurrenceSet(of: series).occurrence(at: local) != nil
  }

  /// The occurrence of `series` whose original start is `local`, as an event: the detached one if
  /// it was detached, else the series' fields at that time; either way with the series' recurrence
  /// and dates of creation and change. `nil` when it is not an occurrence. With `checked` false the
  /// caller vouches that `local` is an occurrence (it came from the index).
  static func occurrence(of series: Event, at local: LocalDateTime, checked: Bool = true) throws(StoreError) -> Event? {
    if var detached = series.detachedOccurrences[local] {
      detached.recurrenceRules = series.recurrenceRules
      detached.recurrenceDates = series.recurrenceDates
      detached.exceptionDates = series.exceptionDates
      detached.creationDate = series.creationDate
      detached.lastModifiedDate = series.lastModifiedDate
      return detached
    }
    guard series.isRecurring, let start = series.start, let end = series.end else { return nil }
    if checked { guard try isOccurrence(local, of: series) else { return nil } }
    var occurrence = series
    occurrence.start = local
    occurrence.end = LocalDateTime(
      wallClockSeconds: local.wallClockSeconds + end.wallClockSeconds - start.wallClockSeconds)
    occurrence.occurrenceDate = local
    occurrence.detachedOccurrences = [:]
    return occurrence
  }

  /// `series` ended before its occurrence `occurrence`: every rule that still generates an
  /// occurrence from there gets an `UNTIL` just before it (in the form RFC 5545 requires for the
  /// series' kind of start) instead of its `COUNT`; later RDATEs, EXDATEs and detached occurrences go.
  static func ending(_ series: Event, before occurrence: LocalDateTime) throws(StoreError) -> Event {
    var ended = series
    let whole = try recurrenceSet(of: series)
    let until: RecurrenceRule.Until
    if series.isAllDay {
      until = .date(LocalDateTime(unchecked: occurrence.wallClockSeconds - 86_400))
    } else if let zone = whole.zone {
      until = .utc(zone.resolve(occurrence) - 1)
    } else {
      until = .floating(LocalDateTime(unchecked: occurrence.wallClockSeconds - 1))
    }
    ended.recurrenceRules = try series.recurrenceRules.map { rule throws(StoreError) in
      guard try generatedOccurrences(of: rule, in: series, from: occurrence, limit: 1) > 0 else { return rule }
      var ending = rule
      ending.count = nil
      ending.until = until
      return ending
    }
    ended.recurrenceDates = series.recurrenceDates.filter { $0 < occurrence }
    ended.exceptionDates = series.exceptionDates.filter { $0 < occurrence }
    ended.detachedOccurrences = series.detachedOccurrences.filter { $0.key < occurrence }
    return ended
  }

  /// The rules of the series that continues `series` from `occurrence` after a split: the caller's
  /// rules when they changed them, else the series' rules with each `COUNT` reduced to the
  /// occurrences it still had from there (a rule with none left is dropped).
  static func continuingRules(
    of series: Event, from occurrence: LocalDateTime, as event: Event
  ) throws(StoreError) -> [RecurrenceRule] {
    guard event.recurrenceRules == series.recurrenceRules else { return event.recurrenceRules }
    var rules: [RecurrenceRule] = []
    for rule in series.recurrenceRules {
      guard let count = rule.count else {
        rules.append(rule)
        continue
      }
      let remaining = try generatedOccurrences(of: rule, in: series, from: occurrence, limit: count)
      guard remaining > 0 else { continue }
      var continuing = rule
      continuing.count = remaining
      rules.append(continuing)
    }
    return rules
  }

  /// `series` (as the caller sent it, with the stored exceptions) moved from its stored start
  /// `original` to its new start: exception dates and detached occurrences move by the same
  /// wall-clock amount, and those that are no longer occurrences of the moved series go.
  static func moving(_ series: Event, from original: LocalDateTime) throws(StoreError) -> Event {
    guard let start = series.start, start != original else { return series }
    let delta = start.wallClockSeconds - original.wallClockSeconds
    func shifted(_ date: LocalDateTime) -> LocalDateTime? {
      LocalDateTime(wallClockSeconds: date.wallClockSeconds + delta)
    }
    var moved = series
    moved.exceptionDates = series.exceptionDates.compactMap(shifted)
    moved.detachedOccurrences = [:]
    let set = try recurrenceSet(of: moved)
    for (date, detached) in series.detachedOccurrences {
      guard let key = shifted(date), set.occurrence(at: key) != nil else { continue }
      var kept = detached
      kept.occurrenceDate = key
      moved.detachedOccurrences[key] = kept
    }
    return moved
  }

  /// How many occurrences `rule` alone generates for `series`' start at or after `occurrence`,
  /// counting at most `limit`.
  private static func generatedOccurrences(
    of rule: RecurrenceRule, in series: Event, from occurrence: LocalDateTime, limit: Int
  ) throws(StoreError) -> Int {
    var single = series
    single.recurrenceRules = [rule]
    single.recurrenceDates = []
    single.exceptionDates = []
    let set = try recurrenceSet(of: single)
    let from = (set.zone ?? .utc).resolve(occurrence)
    var found = 0
    for candidate in set.occurrences(from: from, to: .max) where candidate.local >= occurrence {
      found += 1
      if found >= limit { break }
    }
    return found
  }
}
