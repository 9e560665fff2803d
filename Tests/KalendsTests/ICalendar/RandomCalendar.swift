import Foundation
import Kalends
import KalendsSynthetic

/// A random calendar written as iCalendar text by hand (not by Kalends' writer): zoned, UTC,
/// floating and all-day events, single or recurring (every frequency, BYDAY with ordinals,
/// BYMONTHDAY, BYMONTH, COUNT or UNTIL), with EXDATEs, RDATEs, DURATIONs, `RECURRENCE-ID` overrides,
/// escaped and folded text. Every event's title is unique, so occurrences can be told apart.
struct RandomCalendar {
  /// The file.
  let text: String

  private static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo",
  ]
  private static let flavours = [
    "", ", with a comma", "; and a semicolon", " — ünïcødé ✓ 日本", "\nsecond line", " \\ slash",
  ]

  init(seed: UInt64, events count: Int) throws {
    var random = SeededGenerator(seed: seed)
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kalends tests//Random \(seed)//EN"]
    for index in 0..<count {
      lines += try Self.event(index, seed: seed, &random)
    }
    lines.append("END:VCALENDAR")
    text = lines.flatMap(Self.folded).joined(separator: "\r\n") + "\r\n"
  }

  private enum Kind: CaseIterable { case zoned, utc, floating, allDay }

  private static func event(_ index: Int, seed: UInt64, _ random: inout SeededGenerator) throws -> [String] {
    let kind = random.pick([Kind.zoned, .zoned, .zoned, .utc, .floating, .allDay])
    let zone = kind == .zoned ? random.pick(zones) : nil
    let rules = try zone.map { try ZoneRules.named($0) } ?? .utc
    let allDay = kind == .allDay
    let start = LocalDateTime(
      year: random.int(2026...2027), month: random.int(1...12), day: random.int(1...28),
      hour: allDay ? 0 : random.int(6...20), minute: allDay ? 0 : random.pick([0, 15, 30, 45]))!
    let title = "Event \(index)" + random.pick(flavours)
    func time(_ name: String, _ values: [LocalDateTime]) -> String {
      switch kind {
      case .zoned: "\(name);TZID=\(zone!):" + values.map(\.iCalendarText).joined(separator: ",")
      case .utc: "\(name):" + values.map { $0.iCalendarText + "Z" }.joined(separator: ",")
      case .floating: "\(name):" + values.map(\.iCalendarText).joined(separator: ",")
      case .allDay: "\(name);VALUE=DATE:" + values.map(\.iCalendarDateText).joined(separator: ",")
      }
    }
    var lines = [
      "BEGIN:VEVENT", "UID:random-\(seed)-\(index)@kalends.test", "DTSTAMP:20260101T000000Z", time("DTSTART", [start]),
    ]
    let days = allDay ? Int64(random.int(1...3)) : 0
    let minutes = allDay ? 0 : Int64(random.pick([0, 15, 30, 60, 90, 180]))
    let length = days * 86_400 + minutes * 60
    let end = LocalDateTime(wallClockSeconds: start.wallClockSeconds + length)!
    if random.chance(0.25) {
      lines.append("DURATION:" + (allDay ? "P\(days)D" : "PT\(minutes)M"))
    } else {
      lines.append(time("DTEND", [end]))
    }
    lines.append("SUMMARY:" + escaped(title))
    if random.chance(0.3) {
      lines.append("LOCATION:" + escaped("Room \(random.int(1...9)), floor \(random.int(1...4))"))
    }
    if random.chance(0.3) {
      lines.append("DESCRIPTION:" + escaped(String(repeating: "Agenda ✓ — ", count: random.int(1...12))))
    }
    guard random.chance(0.65) else { return lines + ["END:VEVENT"] }

    let frequency = random.pick(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"])
    var interval = random.int(1...3)
    if frequency == "DAILY" && days > Int64(interval) { interval = Int(days) }
    var parts = ["FREQ=\(frequency)"]
    if interval > 1 { parts.append("INTERVAL=\(interval)") }
    let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    switch frequency {
    case "WEEKLY" where random.chance(0.5) && days <= 1:
      parts.append(
        "BYDAY="
          + Array(Set((0..<random.int(1...3)).map { _ in random.pick(weekdays) })).sorted().joined(separator: ","))
    case "MONTHLY" where random.chance(0.35):
      parts.append("BYMONTHDAY=\(random.pick([1, 5, 15, 28, -1]))")
    case "MONTHLY" where random.chance(0.5):
      parts.append("BYDAY=\(random.pick([1, 2, 3, -1]))\(random.pick(weekdays))")
    case "YEARLY" where random.chance(0.3):
      parts.append("BYMONTH=\(random.int(1...12))")
    default: break
    }
    switch random.int(0...2) {
    case 0: parts.append("COUNT=\(random.int(1...25))")
    case 1:
      let until = LocalDateTime(wallClockSeconds: start.wallClockSeconds + Int64(random.int(20...700)) * 86_400)!
      switch kind {
      case .zoned, .utc:
        let utc = LocalDateTime(wallClockSeconds: rules.resolve(until))!
        parts.append("UNTIL=\(utc.iCalendarText)Z")
      case .floating: parts.append("UNTIL=\(until.iCalendarText)")
      case .allDay: parts.append("UNTIL=\(until.iCalendarDateText)")
      }
    default: break
    }
    let rule = try RecurrenceRule(parsing: parts.joined(separator: ";"))
    lines.append("RRULE:" + parts.joined(separator: ";"))
    let set = try RecurrenceSet(
      start: start, isAllDay: allDay, zone: kind == .zoned ? rules : (kind == .utc ? .utc : nil), duration: length,
      rules: [rule])
    let occurrences = Array(set.occurrences(from: .min, to: .max).prefix(30).map(\.local))
    var excluded: [LocalDateTime] = []
    if occurrences.count > 2 {
      for _ in 0..<random.int(0...2) { excluded.append(occurrences[random.int(1...occurrences.count - 1)]) }
    }
    if !excluded.isEmpty { lines.append(time("EXDATE", Array(Set(excluded)).sorted())) }
    if random.chance(0.2) {
      let extra = LocalDateTime(wallClockSeconds: start.wallClockSeconds + Int64(random.int(1...40)) * 86_400)!
      lines.append(time("RDATE", [extra]))
    }
    lines.append("END:VEVENT")
    let candidates = occurrences.dropFirst().filter { !excluded.contains($0) }
    var overridden: Set<LocalDateTime> = []
    for number in 0..<(candidates.isEmpty ? 0 : random.int(0...2)) {
      let original = random.pick(Array(candidates))
      guard overridden.insert(original).inserted else { continue }
      let shift = allDay ? Int64(random.pick([-1, 1, 2])) * 86_400 : Int64(random.pick([-4, -2, -1, 1, 2, 6])) * 1800
      let moved = LocalDateTime(wallClockSeconds: original.wallClockSeconds + shift)!
      let movedEnd = LocalDateTime(wallClockSeconds: moved.wallClockSeconds + length)!
      lines += [
        "BEGIN:VEVENT", "UID:random-\(seed)-\(index)@kalends.test", "DTSTAMP:20260101T000000Z",
        time("RECURRENCE-ID", [original]), time("DTSTART", [moved]), time("DTEND", [movedEnd]),
        "SUMMARY:" + escaped(title + " (moved \(number))"), "SEQUENCE:1", "END:VEVENT",
      ]
    }
    return lines
  }

  /// TEXT escaping, written independently of Kalends'.
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
      .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// A line folded at 75 octets between characters.
  static func folded(_ line: String) -> [String] {
    var result: [String] = []
    var current = ""
    for character in line {
      let limit = result.isEmpty ? 75 : 74
      if current.utf8.count + String(character).utf8.count > limit {
        result.append(result.isEmpty ? current : " " + current)
        current = ""
      }
      current.append(character)
    }
    result.append(result.isEmpty ? current : " " + current)
    return result
  }
}
