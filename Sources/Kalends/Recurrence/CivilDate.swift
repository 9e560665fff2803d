/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), without Foundation.
///
/// Weekdays are numbered from Monday = 0 to Sunday = 6, as `Weekday.rawValue`.
package enum CivilDate {
  /// The civil date of a day number (Howard Hinnant's `civil_from_days`).
  package static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The day number of a civil date (Howard Hinnant's `days_from_civil`).
  static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The weekday of a day number, Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday).
  @inline(__always)
  static func weekday(_ days: Int64) -> Int {
    let remainder = Int((days + 3) % 7)
    return remainder < 0 ? remainder + 7 : remainder
  }

  /// Whether `year` has a February 29.
  @inline(__always)
  static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// The number of days in `month` (1…12) of `year`.
  @inline(__always)
  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The number of days in `year`.
  @inline(__always)
  static func daysInYear(_ year: Int64) -> Int64 { isLeap(year) ? 366 : 365 }
}

extension Int64 {
  /// `self + other`, clamped to `Int64.min…Int64.max` instead of overflowing.
  @inline(__always)
  func saturatingAdd(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
