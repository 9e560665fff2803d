public import Kalends

/// The recurrence sets the recurrence benchmarks expand: 10,000 occurrences each, in a zone with
/// daylight-saving time. `Benchmarks/scripts/bench-recurrence` expands the same series with python-dateutil and
/// checks that both sides agree on `Summary`; change them in both places.
public enum RecurrenceWorkload {
  /// Occurrences of each series (its rule's COUNT).
  public static let occurrences = 10_000
  /// The series' time zone.
  public static let zone = "America/New_York"

  /// One benchmarked series.
  public struct Series: Sendable {
    /// The benchmark's name.
    public let name: String
    /// The RRULE, with `COUNT` = ``RecurrenceWorkload/occurrences``.
    public let rule: String
    /// DTSTART, iCalendar DATE-TIME text in ``RecurrenceWorkload/zone``; the rule generates it.
    public let start: String
  }

  /// A weekly rule with BYDAY from Monday 2026-01-05 (to 2090), and the last weekday of every month
  /// from Friday 2026-01-30 (to 2859, past the zone's table into its POSIX rule).
  public static let series = [
    Series(name: "Weekly BYDAY", rule: "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10000", start: "20260105T090000"),
    Series(
      name: "Monthly BYSETPOS", rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=10000",
      start: "20260130T090000"),
  ]

  /// The recurrence set of `series`: one-hour occurrences in ``zone``.
  public static func recurrenceSet(_ series: Series) throws -> RecurrenceSet {
    try RecurrenceSet(
      start: LocalDateTime(iCalendar: series.start)!, zone: ZoneRules.named(zone), duration: 3600,
      rules: [RecurrenceRule(parsing: series.rule)])
  }

  /// What an expansion produced: enough to tell two expansions apart.
  public struct Summary: Equatable, Sendable {
    public var count = 0
    /// The first and last occurrences' wall-clock starts (iCalendar text) and start instants.
    public var first: (local: String, start: Int64)?
    public var last: (local: String, start: Int64)?
    /// The sum of every start instant (UTC seconds since 1970).
    public var checksum: Int64 = 0

    public static func == (lhs: Summary, rhs: Summary) -> Bool {
      lhs.count == rhs.count && lhs.first?.local == rhs.first?.local && lhs.first?.start == rhs.first?.start
        && lhs.last?.local == rhs.last?.local && lhs.last?.start == rhs.last?.start && lhs.checksum == rhs.checksum
    }
  }

  /// Every occurrence of `set` from its start on, with what they add up to.
  public static func summarize(_ set: RecurrenceSet) -> Summary {
    var summary = Summary()
    var last: Occurrence?
    for occurrence in set.occurrences(from: window(of: set).from, to: window(of: set).to) {
      if summary.count == 0 { summary.first = (occurrence.local.iCalendarText, occurrence.start) }
      summary.count += 1
      summary.checksum &+= occurrence.start
      last = occurrence
    }
    summary.last = last.map { ($0.local.iCalendarText, $0.start) }
    return summary
  }

  /// The window every expansion asks for: from the series' start to the end of year 9999 (the rule's
  /// COUNT ends it first).
  public static func window(of set: RecurrenceSet) -> (from: Int64, to: Int64) {
    (set.zone!.resolve(set.start), LocalDateTime.max.wallClockSeconds)
  }
}
