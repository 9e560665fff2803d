internal import Platform

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
    guard (0...9999).contains(year) else {
      return
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
        + "\(Self.pad(secondOfDay / 3600, 2)):\(Self.pad(secondOfDay / 60 % 60, 2)):\(Self.pad(secondOfDay % 60, 2))"
        + ".\(Self.pad(micros, 6))Z"
    }
    // Written as bytes: every record and answer that shows a time passes here.
    var text: [UInt8] = []
    text.reserveCapacity(27)
    text.appendDigits(year, width: 4)
    text.append(0x2D)
    text.appendDigits(month, width: 2)
    text.append(0x2D)
    text.appendDigits(day, width: 2)
    text.append(0x54)
    text.appendDigits(secondOfDay / 3600, width: 2)
    text.append(0x3A)
    text.appendDigits(secondOfDay / 60 % 60, width: 2)
    text.append(0x3A)
    text.appendDigits(secondOfDay % 60, width: 2)
    text.append(0x2E)
    text.appendDigits(micros, width: 6)
    text.append(0x5A)
    return String(decoding: text, as: UTF8.self)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

extension Int64 {
  /// Division rounding toward negative infinity, and its non-negative remainder.
  package func floorDividedWithRemainder(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    var quotient = self / divisor
    var remainder = self % divisor
    if remainder < 0 {
      quotient -= 1
      remainder += divisor
    }
    return (quotient, remainder)
  }
}
