package import Kalends

/// Dates and times as people type them, read against the present in the person's zone:
///
/// - a day: `today`, `tomorrow`, `yesterday`; a weekday (`monday` or `mon`: the next one, today
///   included), `next monday` (the one after today); `next week` (seven days on); `+3d`, `-2w`
///   (days and weeks from today); a date, `2026-12-01`;
/// - a time of day, alone (today) or after a day: `10:00`, `9:05`, `10:00:30`, also written
///   `2026-12-01T10:00`;
/// - an instant: `now`, `+90m`, `+2h`, `-30m` (minutes and hours from now).
///
/// Words are matched without regard to case. A day alone is a date (an all-day date); a day with
/// a time is a wall-clock time, which the command places in its zone as it places
/// `2026-12-01T10:00:00`.
package enum SpokenTime {
  /// The forms, for error messages.
  package static let forms =
    "today, tomorrow, monday, next friday, next week, +3d, 10:00, tomorrow 10:00, 2026-12-01 10:00, now, +2h"

  /// The time `text` names, read at the instant `now` (UTC seconds) in `zone`; `nil` when it is
  /// none of the forms, or names a day outside years 1…9999.
  package static func parse(_ text: String, now: Int64, zone: ZoneRules) -> RFC3339Time? {
    let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty, let here = zone.localDateTime(atUTC: now) else { return nil }
    let today = here.dayNumber
    if words.count == 1, let instant = instant(words[0], now: now) { return .instant(instant) }
    var rest = words[...]
    var day = today
    if let (parsed, used) = self.day(rest, today: today, weekday: here.weekday) {
      day = parsed
      rest = rest.dropFirst(used)
      if rest.isEmpty {
        return LocalDateTime(wallClockSeconds: day * 86_400).map(RFC3339Time.date)
      }
    } else if let first = rest.first, let split = first.firstIndex(where: { $0 == "t" }),
      let date = RFC3339Time(first[..<split]), case .date(let local) = date
    {
      // `2026-12-01T10:00`: a date and a time without seconds in one word.
      day = local.dayNumber
      rest = [String(first[first.index(after: split)...])] + rest.dropFirst()
    }
    guard rest.count == 1, let second = secondOfDay(rest[rest.startIndex]) else { return nil }
    return LocalDateTime(wallClockSeconds: day * 86_400 + second).map(RFC3339Time.wallClock)
  }

  /// `now`, `+90m`, `-2h`.
  private static func instant(_ word: String, now: Int64) -> Int64? {
    if word == "now" { return now }
    guard let (count, unit) = offset(word) else { return nil }
    switch unit {
    case "m": return now + count * 60
    case "h": return now + count * 3_600
    default: return nil
    }
  }

  /// The day the first words name, and how many words it took.
  private static func day(_ words: ArraySlice<String>, today: Int64, weekday: Weekday) -> (Int64, Int)? {
    guard let first = words.first else { return nil }
    switch first {
    case "today": return (today, 1)
    case "tomorrow": return (today + 1, 1)
    case "yesterday": return (today - 1, 1)
    case "next":
      let second = words.dropFirst().first
      if second == "week" { return (today + 7, 2) }
      guard let second, let target = weekdayNamed(second) else { return nil }
      let ahead = (target.rawValue - weekday.rawValue + 7) % 7
      return (today + Int64(ahead == 0 ? 7 : ahead), 2)
    default:
      if let target = weekdayNamed(first) {
        return (today + Int64((target.rawValue - weekday.rawValue + 7) % 7), 1)
      }
      if let (count, unit) = offset(first), unit == "d" || unit == "w" {
        return (today + count * (unit == "w" ? 7 : 1), 1)
      }
      if first.count == 10, case .date(let local)? = RFC3339Time(first) { return (local.dayNumber, 1) }
      return nil
    }
  }

  /// `+3d` as (3, "d"); the sign is required, the unit one of m, h, d, w.
  private static func offset(_ word: String) -> (Int64, Character)? {
    guard let sign = word.first, sign == "+" || sign == "-", let unit = word.last, "mhdw".contains(unit) else {
      return nil
    }
    let digits = word.dropFirst().dropLast()
    guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCII), let count = Int64(digits) else {
      return nil
    }
    return (sign == "-" ? -count : count, unit)
  }

  /// `10:00`, `9:05`, `10:00:30`: seconds into the day.
  private static func secondOfDay(_ word: String) -> Int64? {
    let parts = word.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count), (1...2).contains(parts[0].count),
      parts.dropFirst().allSatisfy({ $0.count == 2 }),
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
      let hour = Int64(parts[0]), let minute = Int64(parts[1]), hour < 24, minute < 60
    else { return nil }
    let second = parts.count == 3 ? Int64(parts[2]) : 0
    guard let second, second < 60 else { return nil }
    return hour * 3_600 + minute * 60 + second
  }

  /// The weekday a word names: `monday` or `mon`.
  private static func weekdayNamed(_ word: String) -> Weekday? {
    let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    guard word.count >= 3, let index = names.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
    return Weekday(rawValue: index)
  }
}
