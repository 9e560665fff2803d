/// Reads RRULE text (RFC 5545 §3.3.10) into a `RecurrenceRule`.
enum RecurrenceRuleParser {
  private static let partNames: Set<String> = [
    "FREQ", "INTERVAL", "COUNT", "UNTIL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY", "BYYEARDAY",
    "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST",
  ]

  static func parse(_ text: String) throws(RecurrenceRuleError) -> RecurrenceRule {
    var body = Substring(text.trimmingWhitespace())
    if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
    var values: [String: Substring] = [:]
    for part in body.split(separator: ";", omittingEmptySubsequences: false) {
      guard let equals = part.firstIndex(of: "=") else { throw .unknownPart(String(part)) }
      let name = part[..<equals].uppercased()
      let value = part[part.index(after: equals)...]
      guard partNames.contains(name) else { throw .unknownPart(name) }
      guard values[name] == nil else { throw .duplicatePart(name) }
      guard !value.isEmpty else { throw .emptyValue(part: name) }
      values[name] = value
    }
    guard let frequencyText = values["FREQ"] else { throw .missingFrequency }
    guard let frequency = RecurrenceRule.Frequency(rawValue: frequencyText.uppercased()) else {
      throw .unsupportedFrequency(String(frequencyText))
    }
    let weekStart: Weekday
    if let text = values["WKST"] {
      guard let day = Weekday(code: text) else {
        throw .invalidValue(part: "WKST", value: String(text), expected: "MO…SU")
      }
      weekStart = day
    } else {
      weekStart = .monday
    }
    return try RecurrenceRule(
      frequency: frequency,
      interval: try values["INTERVAL"].map { v throws(RecurrenceRuleError) in try integer("INTERVAL", v) } ?? 1,
      count: try values["COUNT"].map { v throws(RecurrenceRuleError) in try integer("COUNT", v) },
      until: try values["UNTIL"].map { v throws(RecurrenceRuleError) in try until(v) },
      byMonth: try integers("BYMONTH", values["BYMONTH"]),
      byWeekNumber: try integers("BYWEEKNO", values["BYWEEKNO"]),
      byYearDay: try integers("BYYEARDAY", values["BYYEARDAY"]),
      byMonthDay: try integers("BYMONTHDAY", values["BYMONTHDAY"]),
      byDay: try weekdays(values["BYDAY"]),
      byHour: try integers("BYHOUR", values["BYHOUR"]),
      byMinute: try integers("BYMINUTE", values["BYMINUTE"]),
      bySecond: try integers("BYSECOND", values["BYSECOND"]),
      bySetPosition: try integers("BYSETPOS", values["BYSETPOS"]),
      weekStart: weekStart
    )
  }

  private static func integer(_ part: String, _ text: Substring) throws(RecurrenceRuleError) -> Int {
    let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : text
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else {
      throw .invalidValue(part: part, value: String(text), expected: "an integer")
    }
    guard let value = Int(text.first == "+" ? digits : text), (-1_000_000_000...1_000_000_000).contains(value)
    else { throw .invalidValue(part: part, value: String(text), expected: "an integer of at most 9 digits") }
    return value
  }

  private static func items(_ part: String, _ text: Substring) throws(RecurrenceRuleError) -> [Substring] {
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
    if items.contains(where: \.isEmpty) { throw .emptyValue(part: part) }
    return items
  }

  private static func integers(_ part: String, _ text: Substring?) throws(RecurrenceRuleError) -> [Int] {
    guard let text else { return [] }
    var result: [Int] = []
    for item in try items(part, text) { result.append(try integer(part, item)) }
    return result
  }

  private static func weekdays(_ text: Substring?) throws(RecurrenceRuleError) -> [RecurrenceWeekday] {
    guard let text else { return [] }
    var result: [RecurrenceWeekday] = []
    for item in try items("BYDAY", text) {
      guard item.count >= 2, let weekday = Weekday(code: item.suffix(2)) else {
        throw .invalidValue(part: "BYDAY", value: String(item), expected: "a weekday MO…SU, optionally after ±1…53")
      }
      let prefix = item.dropLast(2)
      result.append(RecurrenceWeekday(weekday, ordinal: prefix.isEmpty ? nil : try integer("BYDAY", prefix)))
    }
    return result
  }

  private static func until(_ text: Substring) throws(RecurrenceRuleError) -> RecurrenceRule.Until {
    let expected = "a DATE (20241231), a DATE-TIME (20241231T090000) or a UTC DATE-TIME (20241231T090000Z)"
    if text.count == 16, text.last == "Z" || text.last == "z", let time = LocalDateTime(iCalendar: text.dropLast()) {
      return .utc(time.wallClockSeconds)
    }
    guard let time = LocalDateTime(iCalendar: text) else {
      throw .invalidValue(part: "UNTIL", value: String(text), expected: expected)
    }
    return text.count == 8 ? .date(time) : .floating(time)
  }
}

extension String {
  func trimmingWhitespace() -> Substring {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return self[start...end]
  }
}
