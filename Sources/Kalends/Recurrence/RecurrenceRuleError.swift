/// Why an RRULE text or a `RecurrenceRule` value was rejected; the description names the offending
/// part and says what to do.
public enum RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule has no `FREQ` part.
  case missingFrequency
  /// `FREQ` is `SECONDLY`, `MINUTELY`, `HOURLY` or an unknown word.
  case unsupportedFrequency(String)
  /// A part whose name RFC 5545 does not define, or a part without `=`.
  case unknownPart(String)
  /// A part given twice.
  case duplicatePart(String)
  /// A part with nothing after `=`, or an empty item in a list (`BYDAY=MO,,TU`).
  case emptyValue(part: String)
  /// A value of the wrong shape, such as `COUNT=ten` or `UNTIL=2024-01-01`.
  case invalidValue(part: String, value: String, expected: String)
  /// A number outside the range RFC 5545 (or this implementation) allows. Zero is never allowed
  /// where the range is signed.
  case outOfRange(part: String, value: Int, range: ClosedRange<Int>)
  /// Both `COUNT` and `UNTIL` were given.
  case countAndUntil
  /// An ordinal weekday such as `2MO` in a `DAILY` or `WEEKLY` rule.
  case ordinalWeekdayNeedsMonthlyOrYearly(RecurrenceWeekday)
  /// An ordinal weekday in a `YEARLY` rule that also has `BYWEEKNO`.
  case ordinalWeekdayWithWeekNumber(RecurrenceWeekday)
  /// A part RFC 5545 forbids at this frequency (`BYWEEKNO` outside `YEARLY`, `BYYEARDAY` in
  /// `DAILY`/`WEEKLY`/`MONTHLY`, `BYMONTHDAY` in `WEEKLY`).
  case partNotAllowed(part: String, frequency: RecurrenceRule.Frequency)
  /// `BYSETPOS` without any other `BYxxx` part to select from.
  case setPositionWithoutOtherPart
  /// An `UNTIL` date (`.date`) with a time of day other than midnight.
  case untilDateWithTimeOfDay(LocalDateTime)

  public var description: String {
    switch self {
    case .missingFrequency:
      return "the rule has no FREQ part — add FREQ=DAILY, WEEKLY, MONTHLY or YEARLY"
    case .unsupportedFrequency(let value):
      if ["SECONDLY", "MINUTELY", "HOURLY"].contains(value.uppercased()) {
        return "FREQ=\(value) is not supported — use FREQ=DAILY with BYHOUR/BYMINUTE/BYSECOND instead"
      }
      return "FREQ=\(value) is not a frequency — use DAILY, WEEKLY, MONTHLY or YEARLY"
    case .unknownPart(let part):
      return "\(part.isEmpty ? "an empty part" : "'\(part)'") is not an RRULE part — "
        + "write NAME=VALUE with one of FREQ, INTERVAL, COUNT, UNTIL, BYSECOND, BYMINUTE, BYHOUR, BYDAY, "
        + "BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST, separated by ';'"
    case .duplicatePart(let part):
      return "\(part) appears twice — give each part once, with a comma-separated list if needed"
    case .emptyValue(let part):
      return "\(part) has an empty value — give a value or remove the part"
    case .invalidValue(let part, let value, let expected):
      return "\(part)=\(value) is not valid — expected \(expected)"
    case .outOfRange(let part, let value, let range):
      let zero = range.lowerBound < 0 ? ", excluding 0" : ""
      return "\(part)=\(value) is outside \(range.lowerBound)…\(range.upperBound)\(zero) — use a value in that range"
    case .countAndUntil:
      return "COUNT and UNTIL together — a rule ends either after COUNT occurrences or at UNTIL; keep one"
    case .ordinalWeekdayNeedsMonthlyOrYearly(let day):
      return "BYDAY=\(day): BYDAY ordinals only with MONTHLY or YEARLY — drop the number or change FREQ"
    case .ordinalWeekdayWithWeekNumber(let day):
      return "BYDAY=\(day): BYDAY ordinals cannot be combined with BYWEEKNO — drop the number or BYWEEKNO"
    case .partNotAllowed(let part, let frequency):
      let allowed =
        switch part {
        case "BYWEEKNO": "BYWEEKNO only with YEARLY"
        case "BYYEARDAY": "BYYEARDAY only with YEARLY"
        default: "BYMONTHDAY not with WEEKLY"
        }
      return "\(part) with FREQ=\(frequency): \(allowed) — remove it or change FREQ"
    case .setPositionWithoutOtherPart:
      return "BYSETPOS needs another BYxxx part (such as BYDAY) to select from — add one or remove BYSETPOS"
    case .untilDateWithTimeOfDay(let value):
      return "UNTIL date \(value) has a time of day — use .floating or .utc for a date-time, or midnight for a date"
    }
  }
}
