/// The timing of a repeating event: DTSTART, its rules, RDATEs and EXDATEs (RFC 5545 §3.8.5), and
/// how long each occurrence lasts.
///
/// The occurrences are DTSTART, every time a rule generates, and every RDATE, minus every EXDATE,
/// without duplicates, ascending. All of them are wall-clock times (the occurrence's identity): in
/// `zone` for a zoned series, and for floating and all-day series in the viewer's zone, given when
/// asking. DTSTART is always the first occurrence, even when it does not match the rules; `COUNT`
/// then counts only what the rule generates, so such a series has `COUNT + 1` occurrences (this is
/// what python-dateutil's `rruleset` with DTSTART added as an RDATE, and so `recurring-ical-events`,
/// yields; RFC 5545 leaves an unsynchronised DTSTART undefined).
public struct RecurrenceSet: Sendable {
  /// DTSTART as a wall-clock time; midnight for an all-day series.
  public let start: LocalDateTime
  /// Whether occurrences are whole days (floating dates).
  public let isAllDay: Bool
  /// The event's time zone; nil for floating and all-day series.
  public let zone: ZoneRules?
  /// The length of each occurrence in seconds; whole days for an all-day series.
  public let duration: Int64
  /// The RRULEs (normally one; several are merged).
  public let rules: [RecurrenceRule]
  /// RDATEs: extra wall-clock starts, sorted and unique.
  public let recurrenceDates: [LocalDateTime]
  /// EXDATEs: wall-clock starts removed from the set, sorted and unique.
  public let exceptionDates: [LocalDateTime]

  /// A validated recurrence set; see `RecurrenceSetError` for what is rejected.
  public init(
    start: LocalDateTime, isAllDay: Bool = false, zone: ZoneRules? = nil, duration: Int64 = 0,
    rules: [RecurrenceRule] = [], recurrenceDates: [LocalDateTime] = [], exceptionDates: [LocalDateTime] = []
  ) throws(RecurrenceSetError) {
    guard duration >= 0 else { throw .negativeDuration(duration) }
    for rule in rules {
      do { try rule.validate() } catch { throw .invalidRule(error) }
    }
    if isAllDay {
      if let zone { throw .allDayWithTimeZone(zone.identifier) }
      guard start.isMidnight else { throw .allDayStartHasTimeOfDay(start) }
      guard duration % 86_400 == 0 else { throw .allDayDurationNotWholeDays(duration) }
      if let rule = rules.first(where: { !($0.byHour.isEmpty && $0.byMinute.isEmpty && $0.bySecond.isEmpty) }) {
        throw .timeOfDayInAllDayRule(rule)
      }
      if let date = (recurrenceDates + exceptionDates).first(where: { !$0.isMidnight }) {
        throw .allDayDateHasTimeOfDay(date)
      }
    }
    self.start = start
    self.isAllDay = isAllDay
    self.zone = zone
    self.duration = duration
    self.rules = rules
    self.recurrenceDates = Array(Set(recurrenceDates)).sorted()
    self.exceptionDates = Array(Set(exceptionDates)).sorted()
  }

  /// The occurrences that overlap `[from, to)` (UTC seconds since 1970), ascending by start, then by
  /// wall-clock start: those with `start < to` and `end > from`, and zero-length ones with
  /// `from <= start < to`. Floating and all-day series are placed in `viewerZone` (UTC when nil);
  /// a zoned series ignores it.
  ///
  /// The sequence is lazy: it computes occurrences as it is iterated, stops once past `to`, and
  /// for rules without `COUNT` starts from the period before the window instead of from DTSTART.
  /// For a zoned or floating timed series `end = start + duration`; for floating and all-day series
  /// the end is the wall-clock start plus the duration, resolved in the viewer's zone, so a day stays a
  /// calendar day across a daylight-saving change.
  public func occurrences(from: Int64, to: Int64, viewerZone: ZoneRules? = nil) -> Occurrences {
    Occurrences(set: self, from: from, to: to, viewerZone: viewerZone)
  }

  /// The occurrence of this series whose wall-clock start is `local`, placed like `occurrences`, or nil
  /// when it is not in the set. It expands the rules up to `local`.
  public func occurrence(at local: LocalDateTime, viewerZone: ZoneRules? = nil) -> Occurrence? {
    let resolver = zone ?? viewerZone ?? .utc
    let start = resolver.resolve(local)
    return occurrences(from: start, to: start + 1, viewerZone: viewerZone).first { $0.local == local }
  }
}
