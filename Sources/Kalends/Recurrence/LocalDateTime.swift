/// A wall-clock date and time with second precision, in no particular time zone (years 1…9999).
///
/// It is what a calendar shows: the start of an event in its own zone, a floating time, or the
/// midnight of an all-day date. Values compare in calendar order. It is stored as one integer, the
/// number of wall-clock seconds since 1970-01-01T00:00:00, as if every day had 86,400 seconds.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Wall-clock seconds since 1970-01-01T00:00:00 (negative before).
  public let wallClockSeconds: Int64

  /// The earliest representable value, 0001-01-01T00:00:00.
  public static let min = LocalDateTime(unchecked: CivilDate.days(year: 1, month: 1, day: 1) * 86_400)
  /// The latest representable value, 9999-12-31T23:59:59.
  public static let max = LocalDateTime(unchecked: CivilDate.days(year: 9999, month: 12, day: 31) * 86_400 + 86_399)

  /// The given date and time, or nil when it does not exist (February 30, hour 24, year 0, …).
  public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      Int64(day) <= CivilDate.daysInMonth(year: Int64(year), month: Int64(month)),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    let days = CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day))
    self.init(unchecked: days * 86_400 + Int64(hour * 3600 + minute * 60 + second))
  }

  /// The wall-clock time `wallClockSeconds` after 1970-01-01T00:00:00, or nil outside years 1…9999.
  public init?(wallClockSeconds: Int64) {
    guard (Self.min.wallClockSeconds...Self.max.wallClockSeconds).contains(wallClockSeconds) else { return nil }
    self.init(unchecked: wallClockSeconds)
  }

  /// Parses iCalendar text: a DATE-TIME `20240310T023000` or a DATE `20240310` (midnight).
  /// A trailing `Z` is not accepted here; it marks an instant, not a wall-clock time.
  public init?(iCalendar text: some StringProtocol) {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        guard (48...57).contains(bytes[index]) else { return nil }
        value = value * 10 + Int(bytes[index] - 48)
      }
      return value
    }
    guard bytes.count == 8 || (bytes.count == 15 && (bytes[8] == 84 || bytes[8] == 116)),
      let year = number(0..<4), let month = number(4..<6), let day = number(6..<8)
    else { return nil }
    if bytes.count == 8 {
      self.init(year: year, month: month, day: day)
    } else {
      guard let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15) else { return nil }
      self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
  }

  package init(unchecked wallClockSeconds: Int64) { self.wallClockSeconds = wallClockSeconds }

  /// Days since 1970-01-01 of this date.
  package var dayNumber: Int64 { wallClockSeconds.floorDividedWithRemainder(by: 86_400).quotient }
  /// Seconds since midnight, 0…86,399.
  var secondOfDay: Int64 { wallClockSeconds.floorDividedWithRemainder(by: 86_400).remainder }

  public var year: Int { Int(CivilDate.fromDays(dayNumber).year) }
  public var month: Int { Int(CivilDate.fromDays(dayNumber).month) }
  public var day: Int { Int(CivilDate.fromDays(dayNumber).day) }
  public var hour: Int { Int(secondOfDay / 3600) }
  public var minute: Int { Int(secondOfDay / 60 % 60) }
  public var second: Int { Int(secondOfDay % 60) }
  /// The day of the week of this date.
  public var weekday: Weekday { Weekday(rawValue: CivilDate.weekday(dayNumber))! }
  /// Whether the time of day is 00:00:00.
  public var isMidnight: Bool { secondOfDay == 0 }

  /// ISO 8601 without offset: `2024-03-10T02:30:00`.
  public var description: String { digits(dateSeparator: 0x2D, timeSeparator: 0x3A, withTime: true) }

  /// iCalendar DATE-TIME text without zone: `20240310T023000`.
  public var iCalendarText: String { digits(dateSeparator: nil, timeSeparator: nil, withTime: true) }

  /// iCalendar DATE text of the date: `20240310`.
  public var iCalendarDateText: String { digits(dateSeparator: nil, timeSeparator: nil, withTime: false) }

  /// The date (year in four digits at least), then `T` and the time when asked, with the
  /// separators given. Written as bytes: every time a server writes passes here.
  private func digits(dateSeparator: UInt8?, timeSeparator: UInt8?, withTime: Bool) -> String {
    let (year, month, day) = CivilDate.fromDays(dayNumber)
    guard (0...9999).contains(year) else {
      let time = secondOfDay
      let date = [Self.pad(year, 4), Self.pad(month, 2), Self.pad(day, 2)]
        .joined(separator: dateSeparator.map { String(UnicodeScalar($0)) } ?? "")
      guard withTime else { return date }
      return date + "T"
        + [Self.pad(time / 3600, 2), Self.pad(time / 60 % 60, 2), Self.pad(time % 60, 2)]
        .joined(separator: timeSeparator.map { String(UnicodeScalar($0)) } ?? "")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(19)
    bytes.appendDigits(year, width: 4)
    if let dateSeparator { bytes.append(dateSeparator) }
    bytes.appendDigits(month, width: 2)
    if let dateSeparator { bytes.append(dateSeparator) }
    bytes.appendDigits(day, width: 2)
    if withTime {
      let time = secondOfDay
      bytes.append(0x54)
      bytes.appendDigits(time / 3600, width: 2)
      if let timeSeparator { bytes.append(timeSeparator) }
      bytes.appendDigits(time / 60 % 60, width: 2)
      if let timeSeparator { bytes.append(timeSeparator) }
      bytes.appendDigits(time % 60, width: 2)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    lhs.wallClockSeconds < rhs.wallClockSeconds
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }
}

extension [UInt8] {
  /// Appends the ASCII decimal digits of `value` (not negative, fewer than `width` + 1 digits),
  /// zero-padded to `width`: how times are written as text without building strings.
  mutating func appendDigits(_ value: Int64, width: Int) {
    var divisor: Int64 = 1
    for _ in 1..<width { divisor *= 10 }
    while divisor > 0 {
      append(0x30 + UInt8(value / divisor % 10))
      divisor /= 10
    }
  }
}
