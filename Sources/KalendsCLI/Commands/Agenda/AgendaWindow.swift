import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// The window `kalends agenda` shows, from the words a person gives it: `today`, `tomorrow`,
/// `week` (seven days from today), `month` (to the same day of next month), one day as typed
/// (`friday`, `+3d`, `2026-12-01`), or `FROM..TO` where either side may be left out (today; the
/// day after FROM). A day given as the end is included; a time given as the end is where the
/// window stops. Days are the wall-clock days of `zone`.
struct AgendaWindow: Equatable {
  /// The window, UTC seconds: `[start, end)`.
  let start: Int64
  let end: Int64

  /// `(start, end)`.
  var bounds: (Int64, Int64) { (start, end) }

  /// The words accepted, for the help and for errors.
  static let forms = "today, tomorrow, week, month, a day (friday, +3d, 2026-12-01) or FROM..TO"

  /// Reads `text` against the present `now` (UTC seconds) in `zone`.
  init(_ text: String, zone: ZoneRules, now: Int64) throws(CLIError) {
    let words = text.trimmingCharacters(in: .whitespaces).lowercased()
    let today = Self.day(containing: now, in: zone)
    switch words {
    case "", "today":
      (start, end) = (zone.resolve(today), zone.resolve(Self.days(today, 1)))
    case "week":
      (start, end) = (zone.resolve(today), zone.resolve(Self.days(today, 7)))
    case "month":
      (start, end) = (zone.resolve(today), zone.resolve(Self.nextMonth(today)))
    default:
      if let range = words.range(of: "..") {
        let (from, to) = (String(words[..<range.lowerBound]), String(words[range.upperBound...]))
        let first = from.isEmpty ? (zone.resolve(today), today) : try Self.bound(from, zone: zone, isEnd: false)
        start = first.0
        end = to.isEmpty ? zone.resolve(Self.days(first.1, 1)) : try Self.bound(to, zone: zone, isEnd: true).0
      } else {
        let (at, _) = try Self.bound(words, zone: zone, isEnd: false)
        let day = Self.day(containing: at, in: zone)
        (start, end) = (zone.resolve(day), zone.resolve(Self.days(day, 1)))
      }
    }
    guard start < end else { throw CLIError.invalidInput("\"\(text)\": the window ends before it starts") }
  }

  /// Where a side of `FROM..TO` falls, with the day it is in: a day starts at its midnight (the
  /// next midnight when it ends the window); a time is itself.
  private static func bound(_ text: String, zone: ZoneRules, isEnd: Bool) throws(CLIError) -> (Int64, LocalDateTime) {
    let argument: DateArgument
    do {
      argument = try DateArgument(text, option: "agenda", zone: zone)
    } catch {
      throw CLIError.invalidInput("\"\(text)\" is not a window — write \(forms)")
    }
    do {
      if case .date = argument.value {
        let day = try argument.wallClock(in: nil)
        return (zone.resolve(isEnd ? days(day, 1) : day), day)
      }
      let at = try argument.instant(in: zone)
      return (at, Self.day(containing: at, in: zone))
    } catch {
      throw CLIError.invalidInput("\(error)")
    }
  }

  /// The midnight starting the wall-clock day of `zone` that holds the instant `utc`.
  static func day(containing utc: Int64, in zone: ZoneRules) -> LocalDateTime {
    let local = zone.localDateTime(atUTC: utc) ?? (utc < 0 ? .min : .max)
    return LocalDateTime(
      wallClockSeconds: local.wallClockSeconds.floorDividedWithRemainder(by: 86_400).quotient * 86_400)
      ?? local
  }

  /// `day` moved by `count` days (kept within the years 1…9999).
  static func days(_ day: LocalDateTime, _ count: Int64) -> LocalDateTime {
    LocalDateTime(wallClockSeconds: day.wallClockSeconds + count * 86_400) ?? (count < 0 ? .min : .max)
  }

  /// The same day of the next month, or that month's last day when it is shorter.
  private static func nextMonth(_ day: LocalDateTime) -> LocalDateTime {
    let (year, month) = day.month == 12 ? (day.year + 1, 1) : (day.year, day.month + 1)
    for date in stride(from: day.day, through: 1, by: -1) {
      if let next = LocalDateTime(year: year, month: month, day: date) { return next }
    }
    return .max
  }
}
