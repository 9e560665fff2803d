#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A wall-clock instant with microsecond precision: when a record was appended.
public struct Timestamp: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Microseconds since 1970-01-01T00:00:00Z (negative before).
  public var rawValue: Int64

  /// Wraps microseconds since the Unix epoch.
  public init(rawValue: Int64) { self.rawValue = rawValue }

  /// Wraps microseconds since the Unix epoch.
  public init(microsecondsSince1970: Int64) { self.rawValue = microsecondsSince1970 }

  /// The current wall-clock time.
  public static func now() -> Timestamp {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Timestamp(rawValue: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000)
  }

  /// Seconds since the Unix epoch, as a floating-point number.
  public var secondsSince1970: Double { Double(rawValue) / 1_000_000 }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.rawValue < rhs.rawValue }

  /// RFC 3339 in UTC with microseconds, e.g. `2026-03-29T09:30:00.000000Z`.
  public var description: String {
    let (seconds, micros) = rawValue.floorDividedWithRemainder(by: 1_000_000)
    let (days, secondOfDay) = seconds.floorDividedWithRemainder(by: 86_400)
    let (year, month, day) = CivilDate.fromDays(days)
    return
      "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
      + "\(Self.pad(secondOfDay / 3600, 2)):\(Self.pad(secondOfDay / 60 % 60, 2)):\(Self.pad(secondOfDay % 60, 2))"
      + ".\(Self.pad(micros, 6))Z"
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

extension Int64 {
  /// Division rounding toward negative infinity, and its non-negative remainder.
  func floorDividedWithRemainder(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    var quotient = self / divisor
    var remainder = self % divisor
    if remainder < 0 {
      quotient -= 1
      remainder += divisor
    }
    return (quotient, remainder)
  }
}

/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), without Foundation.
enum CivilDate {
  /// The civil date of a day number (Howard Hinnant's `civil_from_days`).
  static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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
}
