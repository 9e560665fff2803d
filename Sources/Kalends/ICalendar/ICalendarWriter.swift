/// Writes iCalendar text (RFC 5545): CRLF line ends, lines folded at 75 octets without splitting a
/// UTF-8 sequence, TEXT escaped.
struct ICalendarWriter {
  private(set) var text = ""

  /// Writes `NAME:value`, folded.
  mutating func line(_ name: String, _ value: String) { line(name, [], value) }

  /// Writes `NAME;PARAM=VALUE:value`, folded.
  mutating func line(_ name: String, _ parameters: [(String, String)], _ value: String) {
    var line = name
    for (parameter, parameterValue) in parameters {
      let needsQuotes = parameterValue.contains { $0 == ";" || $0 == ":" || $0 == "," }
      line += ";\(parameter)=" + (needsQuotes ? "\"\(parameterValue.filter { $0 != "\"" })\"" : parameterValue)
    }
    raw(line + ":" + value)
  }

  /// Writes an unfolded content line as it is, folded.
  mutating func raw(_ line: String) {
    let bytes = Array(line.utf8)
    var start = 0
    var limit = 75
    while bytes.count - start > limit {
      var end = start + limit
      while end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
      text += String(decoding: bytes[start..<end], as: UTF8.self) + "\r\n "
      start = end
      limit = 74
    }
    text += String(decoding: bytes[start...], as: UTF8.self) + "\r\n"
  }

  mutating func begin(_ component: String) { raw("BEGIN:" + component) }
  mutating func end(_ component: String) { raw("END:" + component) }

  /// A wall-clock time as a DATE-TIME property: with `Z` in UTC, with `TZID` in another zone,
  /// floating without one; a date with `VALUE=DATE`.
  mutating func time(_ name: String, _ values: [LocalDateTime], zone: String?, isDate: Bool) {
    guard !values.isEmpty else { return }
    if isDate {
      line(name, [("VALUE", "DATE")], values.map(\.iCalendarDateText).joined(separator: ","))
    } else if zone == "UTC" {
      line(name, values.map { $0.iCalendarText + "Z" }.joined(separator: ","))
    } else if let zone {
      line(name, [("TZID", zone)], values.map(\.iCalendarText).joined(separator: ","))
    } else {
      line(name, values.map(\.iCalendarText).joined(separator: ","))
    }
  }

  /// A UTC timestamp property (`DTSTAMP`, `CREATED`, …), whole seconds.
  mutating func timestamp(_ name: String, _ value: Timestamp?) {
    guard let value else { return }
    let seconds = value.rawValue.floorDividedWithRemainder(by: 1_000_000).quotient
    guard let local = LocalDateTime(wallClockSeconds: seconds) else { return }
    line(name, local.iCalendarText + "Z")
  }

  /// A TEXT property, escaped; nothing when `value` is `nil` or empty.
  mutating func text(_ name: String, _ value: String?) {
    guard let value, !value.isEmpty else { return }
    line(name, ICalendarText.escaped(value))
  }

  /// A `VALARM` that displays `description` `offset` seconds from the start.
  mutating func alarm(_ alarm: Alarm, description: String) {
    begin("VALARM")
    line("ACTION", "DISPLAY")
    line("DESCRIPTION", ICalendarText.escaped(description.isEmpty ? "Reminder" : description))
    line("TRIGGER", ICalendarText.durationText(alarm.relativeOffset))
    end("VALARM")
  }
}
