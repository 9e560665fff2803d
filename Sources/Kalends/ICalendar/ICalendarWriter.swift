/// Writes iCalendar text (RFC 5545): CRLF line ends, lines folded at 75 octets without splitting a
/// UTF-8 sequence, TEXT escaped.
struct ICalendarWriter {
  /// The UTF-8 text written so far. Written as bytes: a report writes hundreds of objects, and
  /// building each line as a `String` of its own cost more than everything else it does.
  private(set) var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1024) }

  /// The text written so far.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes `NAME:value`, folded.
  mutating func line(_ name: String, _ value: String) { line(name, [], value) }

  /// Writes `NAME;PARAM=VALUE:value`, folded.
  mutating func line(_ name: String, _ parameters: [(String, String)], _ value: String) {
    var line = Line(start: bytes.count)
    line.append(name, to: &bytes)
    for (parameter, parameterValue) in parameters {
      line.append(";", to: &bytes)
      line.append(parameter, to: &bytes)
      line.append("=", to: &bytes)
      if parameterValue.utf8.contains(where: { $0 == 0x3B || $0 == 0x3A || $0 == 0x2C }) {
        line.append("\"", to: &bytes)
        line.append(parameterValue.filter { $0 != "\"" }, to: &bytes)
        line.append("\"", to: &bytes)
      } else {
        line.append(parameterValue, to: &bytes)
      }
    }
    line.append(":", to: &bytes)
    line.append(value, to: &bytes)
    bytes += [0x0D, 0x0A]
  }

  /// Writes an unfolded content line as it is, folded.
  mutating func raw(_ text: String) {
    var line = Line(start: bytes.count)
    line.append(text, to: &bytes)
    bytes += [0x0D, 0x0A]
  }

  /// Appends bytes already written by another writer (a cached `VTIMEZONE`), as they are.
  mutating func append(written: [UInt8]) { bytes += written }

  /// One content line being written: folds it at 75 octets (74 after the first fold's space),
  /// never inside a UTF-8 sequence, as its parts are appended.
  private struct Line {
    /// Where the current physical line starts in the output.
    var start: Int

    mutating func append(_ part: String, to bytes: inout [UInt8]) {
      var part = part
      part.withUTF8 { utf8 in
        var index = 0
        while index < utf8.count {
          let room = 75 - (bytes.count - start)
          if utf8.count - index <= room {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index...]))
            return
          }
          // Never inside a sequence: at worst nothing more fits on this line, and a new line
          // (74 octets) holds any sequence.
          var end = index + room
          while end > index, utf8[end] & 0xC0 == 0x80 { end -= 1 }
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<end]))
          bytes += [0x0D, 0x0A, 0x20]
          start = bytes.count - 1
          index = end
        }
      }
    }
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

  /// A `VALARM` `offset` seconds from the start: its kept properties (``Alarm/additionalProperties``)
  /// after its `TRIGGER`; without an `ACTION` among them, a display alarm, describing the item
  /// titled `title` unless they hold a `DESCRIPTION`.
  mutating func alarm(_ alarm: Alarm, description title: String) {
    begin("VALARM")
    let names = Set(alarm.additionalProperties.map(ContentLine.name(of:)))
    if !names.contains("ACTION") {
      line("ACTION", "DISPLAY")
      if !names.contains("DESCRIPTION") { line("DESCRIPTION", ICalendarText.escaped(Alarm.description(of: title))) }
    }
    line("TRIGGER", ICalendarText.durationText(alarm.relativeOffset))
    for property in alarm.additionalProperties { raw(property) }
    end("VALARM")
  }
}
