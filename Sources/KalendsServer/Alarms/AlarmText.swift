import Kalends
import KalendsFormats

/// The words of an alarm's notification: the title as summary; when, where, and whether it was
/// missed as body, in the person's zone.
enum AlarmText {
  /// The summary and body of `alarm`; `missed` when the server was not running when it fired.
  static func notification(_ alarm: DueAlarm, missed: Bool, zone: ZoneRules) -> (summary: String, body: String) {
    var parts: [String] = []
    switch alarm.item {
    case .event:
      if alarm.isAllDay {
        parts.append("\(day(alarm.start, zone)), all day")
      } else {
        let end = alarm.end.map { "–" + time($0, zone) } ?? ""
        parts.append("\(day(alarm.start, zone)) \(time(alarm.start, zone))\(end)")
      }
    case .reminder:
      parts.append("Due \(day(alarm.start, zone))" + (alarm.isAllDay ? "" : " \(time(alarm.start, zone))"))
    }
    if let location = alarm.location, !location.isEmpty { parts.append(location) }
    if missed { parts.insert("Missed while Kalends was not running", at: 0) }
    return (alarm.title.isEmpty ? "(no title)" : alarm.title, parts.joined(separator: " · "))
  }

  private static func local(_ utc: Int64, _ zone: ZoneRules) -> LocalDateTime {
    zone.localDateTime(atUTC: utc) ?? LocalDateTime(wallClockSeconds: utc) ?? .min
  }

  /// `Sat 2026-11-28`.
  private static func day(_ utc: Int64, _ zone: ZoneRules) -> String {
    let local = local(utc, zone)
    let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    let days = local.wallClockSeconds.floorDividedWithRemainder(by: 86_400).quotient
    // 1970-01-01 was a Thursday.
    let weekday = names[Int((days + 3).floorDividedWithRemainder(by: 7).remainder)]
    return "\(weekday) \(RFC3339Time.dateText(for: local))"
  }

  /// `09:30`.
  private static func time(_ utc: Int64, _ zone: ZoneRules) -> String {
    let seconds = local(utc, zone).wallClockSeconds.floorDividedWithRemainder(by: 86_400).remainder
    let (hour, minute) = (seconds / 3_600, seconds % 3_600 / 60)
    return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }
}
