/// The POSIX TZ string at the end of a TZif file (RFC 8536 §3.3), such as `EST5EDT,M3.2.0,M11.1.0`:
/// the rule that applies after the file's last transition.
struct PosixTimeZoneRule: Sendable {
  /// When daylight time starts or ends, as a day rule and a local time of day.
  struct Moment: Sendable {
    enum Day: Sendable {
      /// `Jn`: day 1…365, February 29 never counted.
      case julian(Int64)
      /// `n`: day 0…365, counting February 29.
      case zeroBased(Int64)
      /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = last) of month `m`.
      case monthWeekDay(month: Int64, week: Int64, weekday: Int64)
    }
    var day: Day
    /// Seconds after local midnight (may be negative or beyond a day, RFC 8536 §3.3.1).
    var time: Int64

    /// Local wall-clock seconds since 1970 of this moment in `year`.
    func local(in year: Int64) -> Int64 {
      let january1 = CivilDate.days(year: year, month: 1, day: 1)
      let dayNumber: Int64
      switch day {
      case .julian(let n):
        dayNumber = january1 + n - 1 + (CivilDate.isLeap(year) && n >= 60 ? 1 : 0)
      case .zeroBased(let n):
        dayNumber = january1 + n
      case .monthWeekDay(let month, let week, let weekday):
        let first = CivilDate.days(year: year, month: month, day: 1)
        let firstWeekday = Int64((CivilDate.weekday(first) + 1) % 7)
        var candidate = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
        let last = first + CivilDate.daysInMonth(year: year, month: month) - 1
        while candidate > last { candidate -= 7 }
        dayNumber = candidate
      }
      return dayNumber * 86_400 + time
    }
  }

  /// Standard time's offset, seconds east of UTC.
  var standardOffset: Int64
  /// Daylight time's offset and period, if the zone observes one.
  var daylight: (offset: Int64, start: Moment, end: Moment)?

  /// The two transitions of `year` in UTC: daylight time starts, daylight time ends.
  func transitions(in year: Int64) -> (start: Int64, end: Int64)? {
    guard let daylight else { return nil }
    return (daylight.start.local(in: year) - standardOffset, daylight.end.local(in: year) - daylight.offset)
  }

  /// The transitions of the years before, of and after a year, which resolving a time of that year
  /// examines: kept by a caller that resolves many times of the same years.
  struct NearbyTransitions: Sendable {
    fileprivate var year: Int64 = .min
    fileprivate var previous: (start: Int64, end: Int64) = (0, 0)
    fileprivate var current: (start: Int64, end: Int64) = (0, 0)
    fileprivate var next: (start: Int64, end: Int64) = (0, 0)
  }

  /// The offset in effect at `utc` (seconds since 1970).
  func offset(atUTC utc: Int64) -> Int64 {
    var nearby = NearbyTransitions()
    return latest(before: utc, nearby: &nearby, boundary: { transition, _ in transition })
  }

  /// The UTC instant of a wall-clock time: in a gap, the offset before it; in an overlap, the first.
  func resolve(local: Int64) -> Int64 {
    var nearby = NearbyTransitions()
    return resolve(local: local, nearby: &nearby)
  }

  /// `resolve(local:)`, reusing and updating the transitions in `nearby`.
  func resolve(local: Int64, nearby: inout NearbyTransitions) -> Int64 {
    local - latest(before: local, nearby: &nearby, boundary: { transition, widest in transition + widest })
  }

  /// The offset after the latest transition whose `boundary` is at or before `time`.
  private func latest(
    before time: Int64, nearby: inout NearbyTransitions, boundary: (Int64, Int64) -> Int64
  ) -> Int64 {
    guard let daylight else { return standardOffset }
    let widest = max(standardOffset, daylight.offset)
    let year = CivilDate.fromDays((time - standardOffset).floorDividedWithRemainder(by: 86_400).quotient).year
    if nearby.year != year {
      nearby.year = year
      // Never nil: `daylight` is set.
      nearby.previous = transitions(in: year - 1)!
      nearby.current = transitions(in: year)!
      nearby.next = transitions(in: year + 1)!
    }
    var best = Int64.min
    var offset = standardOffset
    func consider(_ transitions: (start: Int64, end: Int64)) {
      let startBoundary = boundary(transitions.start, widest)
      let endBoundary = boundary(transitions.end, widest)
      if startBoundary <= time, startBoundary > best { (best, offset) = (startBoundary, daylight.offset) }
      if endBoundary <= time, endBoundary > best { (best, offset) = (endBoundary, standardOffset) }
    }
    consider(nearby.previous)
    consider(nearby.current)
    consider(nearby.next)
    return offset
  }

  /// Parses a POSIX TZ string; nil when it is empty or malformed.
  init?(_ text: String) {
    var scanner = Scanner(bytes: Array(text.utf8))
    guard scanner.name(), let standard = scanner.offset() else { return nil }
    standardOffset = -standard
    if scanner.atEnd {
      daylight = nil
      return
    }
    guard scanner.name() else { return nil }
    let daylightOffset = scanner.peek == UInt8(ascii: ",") ? standardOffset + 3600 : scanner.offset().map { -$0 }
    guard let daylightOffset, scanner.take(","), let start = scanner.moment(), scanner.take(","),
      let end = scanner.moment(), scanner.atEnd
    else { return nil }
    daylight = (daylightOffset, start, end)
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func take(_ character: Character) -> Bool {
      guard peek == character.asciiValue else { return false }
      index += 1
      return true
    }

    /// A zone abbreviation: letters, or anything between `<` and `>`.
    mutating func name() -> Bool {
      if take("<") {
        while let byte = peek, byte != UInt8(ascii: ">") { index += 1 }
        return take(">")
      }
      let start = index
      while let byte = peek, (65...90).contains(byte) || (97...122).contains(byte) { index += 1 }
      return index - start >= 3
    }

    mutating func number() -> Int64? {
      let start = index
      var value: Int64 = 0
      while let byte = peek, (48...57).contains(byte), index - start < 4 {
        value = value * 10 + Int64(byte - 48)
        index += 1
      }
      return index > start ? value : nil
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    mutating func offset() -> Int64? {
      let sign: Int64 = take("-") ? -1 : (take("+") ? 1 : 1)
      guard let hours = number(), hours <= 167 else { return nil }
      var seconds = hours * 3600
      if take(":") {
        guard let minutes = number() else { return nil }
        seconds += minutes * 60
        if take(":") {
          guard let secs = number() else { return nil }
          seconds += secs
        }
      }
      return sign * seconds
    }

    mutating func moment() -> Moment? {
      let day: Moment.Day
      if take("M") {
        guard let month = number(), take("."), let week = number(), take("."), let weekday = number(),
          (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday)
        else { return nil }
        day = .monthWeekDay(month: month, week: week, weekday: weekday)
      } else if take("J") {
        guard let n = number(), (1...365).contains(n) else { return nil }
        day = .julian(n)
      } else {
        guard let n = number(), (0...365).contains(n) else { return nil }
        day = .zeroBased(n)
      }
      var time: Int64 = 7200
      if take("/") {
        guard let value = offset() else { return nil }
        time = value
      }
      return Moment(day: day, time: time)
    }
  }
}
