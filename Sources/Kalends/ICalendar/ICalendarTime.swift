/// A DATE or DATE-TIME value as written (RFC 5545 §3.3.4, §3.3.5): a date, a floating time, a UTC
/// time, or a time in the zone a `TZID` parameter names.
enum ICalendarTime: Hashable, Sendable {
  /// `VALUE=DATE`: `20260329`, as its midnight.
  case date(LocalDateTime)
  /// `20260329T093000`: the same wall-clock time in any zone.
  case floating(LocalDateTime)
  /// `20260329T073000Z`: the UTC wall clock.
  case utc(LocalDateTime)
  /// `TZID=Europe/Berlin:20260329T093000`: a wall-clock time in the zone the `TZID` names.
  case zoned(LocalDateTime, tzid: String)

  /// The wall-clock value as written.
  var local: LocalDateTime {
    switch self {
    case .date(let value), .floating(let value), .utc(let value), .zoned(let value, _): value
    }
  }

  var isDate: Bool {
    if case .date = self { return true }
    return false
  }

  /// Parses one value of `line` (`text`, one item of a list), using its `VALUE` and `TZID` parameters.
  static func parse(_ text: Substring, of line: ContentLine) throws(ICalendarError) -> ICalendarTime {
    let declared = line.parameter("VALUE")?.uppercased()
    let bytes = text.utf8
    if bytes.count == 8 || declared == "DATE" {
      guard bytes.count == 8, let date = LocalDateTime(iCalendar: text) else {
        throw invalid(text, line, "a DATE (20260329)")
      }
      return .date(date)
    }
    if bytes.count == 16, text.last == "Z" || text.last == "z" {
      guard let time = LocalDateTime(iCalendar: text.dropLast()) else { throw invalid(text, line, dateTime) }
      return .utc(time)
    }
    guard let time = LocalDateTime(iCalendar: text) else { throw invalid(text, line, dateTime) }
    if let tzid = line.parameter("TZID"), !tzid.isEmpty { return .zoned(time, tzid: tzid) }
    return .floating(time)
  }

  /// The single value of `line`.
  static func parse(_ line: ContentLine) throws(ICalendarError) -> ICalendarTime {
    try parse(Substring(line.value.trimmingWhitespace()), of: line)
  }

  /// Every value of a list property (`EXDATE`, `RDATE`); a PERIOD (`start/end`) counts as its start.
  static func parseList(_ line: ContentLine) throws(ICalendarError) -> [ICalendarTime] {
    var values: [ICalendarTime] = []
    for item in line.value.split(separator: ",") {
      let start = item.split(separator: "/", maxSplits: 1).first ?? item
      values.append(try parse(Substring(String(start).trimmingWhitespace()), of: line))
    }
    return values
  }

  private static let dateTime = "a DATE-TIME (20260329T093000, with Z for UTC)"

  private static func invalid(_ text: Substring, _ line: ContentLine, _ expected: String) -> ICalendarError {
    ICalendarError(line: line.line, .invalidValue(property: line.name, value: String(text), expected: expected))
  }
}
