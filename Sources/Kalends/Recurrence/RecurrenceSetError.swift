/// Why a `RecurrenceSet` could not be built.
public enum RecurrenceSetError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An all-day series must start at midnight.
  case allDayStartHasTimeOfDay(LocalDateTime)
  /// An all-day series is floating: it has no time zone.
  case allDayWithTimeZone(String)
  /// An all-day series lasts whole days.
  case allDayDurationNotWholeDays(Int64)
  /// A rule of an all-day series uses `BYHOUR`, `BYMINUTE` or `BYSECOND`.
  case timeOfDayInAllDayRule(RecurrenceRule)
  /// An all-day series has an `RDATE` or `EXDATE` that is not a date (midnight).
  case allDayDateHasTimeOfDay(LocalDateTime)
  /// The duration is negative.
  case negativeDuration(Int64)
  /// A rule failed `RecurrenceRule.validate()`.
  case invalidRule(RecurrenceRuleError)

  public var description: String {
    switch self {
    case .allDayStartHasTimeOfDay(let start):
      return "the all-day series starts at \(start) — an all-day start is a date at midnight"
    case .allDayWithTimeZone(let zone):
      return "the all-day series has time zone \(zone) — all-day series are floating; pass no zone"
    case .allDayDurationNotWholeDays(let seconds):
      return "the all-day duration of \(seconds) s is not whole days — use a multiple of 86400"
    case .timeOfDayInAllDayRule(let rule):
      return "the all-day rule \(rule) sets a time of day — remove BYHOUR, BYMINUTE and BYSECOND"
    case .allDayDateHasTimeOfDay(let date):
      return "the all-day series lists \(date) as RDATE or EXDATE — use a date at midnight"
    case .negativeDuration(let seconds):
      return "the duration \(seconds) s is negative — the end must not be before the start"
    case .invalidRule(let error):
      return error.description
    }
  }
}
