extension RecurrenceRule {
  /// Checks every part against RFC 5545 (ranges, and which parts each frequency allows) and this
  /// implementation's limits (`maximumInterval`, `maximumCount`, no leap second).
  public func validate() throws(RecurrenceRuleError) {
    try Self.check("INTERVAL", [interval], 1...Self.maximumInterval)
    if let count { try Self.check("COUNT", [count], 1...Self.maximumCount) }
    if count != nil, until != nil { throw .countAndUntil }
    if case .date(let date) = until, !date.isMidnight { throw .untilDateWithTimeOfDay(date) }
    if case .utc(let seconds) = until, LocalDateTime(wallClockSeconds: seconds) == nil {
      throw .outOfRange(part: "UNTIL year", value: seconds < 0 ? 0 : 10_000, range: 1...9999)
    }
    try Self.check("BYMONTH", byMonth, 1...12)
    try Self.check("BYWEEKNO", byWeekNumber, -53...53)
    try Self.check("BYYEARDAY", byYearDay, -366...366)
    try Self.check("BYMONTHDAY", byMonthDay, -31...31)
    try Self.check("BYDAY", byDay.compactMap(\.ordinal), -53...53)
    try Self.check("BYHOUR", byHour, 0...23)
    try Self.check("BYMINUTE", byMinute, 0...59)
    try Self.check("BYSECOND", bySecond, 0...59)
    try Self.check("BYSETPOS", bySetPosition, -366...366)
    if !byWeekNumber.isEmpty, frequency != .yearly { throw .partNotAllowed(part: "BYWEEKNO", frequency: frequency) }
    if !byYearDay.isEmpty, frequency != .yearly { throw .partNotAllowed(part: "BYYEARDAY", frequency: frequency) }
    if !byMonthDay.isEmpty, frequency == .weekly { throw .partNotAllowed(part: "BYMONTHDAY", frequency: frequency) }
    if let ordinal = byDay.first(where: { $0.ordinal != nil }) {
      if frequency == .daily || frequency == .weekly { throw .ordinalWeekdayNeedsMonthlyOrYearly(ordinal) }
      if !byWeekNumber.isEmpty { throw .ordinalWeekdayWithWeekNumber(ordinal) }
    }
    let selects =
      !(byMonth.isEmpty && byWeekNumber.isEmpty && byYearDay.isEmpty && byMonthDay.isEmpty && byDay.isEmpty
      && byHour.isEmpty && byMinute.isEmpty && bySecond.isEmpty)
    if !bySetPosition.isEmpty, !selects { throw .setPositionWithoutOtherPart }
  }

  private static func check(_ part: String, _ values: [Int], _ range: ClosedRange<Int>) throws(RecurrenceRuleError) {
    for value in values where !range.contains(value) || (range.lowerBound < 0 && value == 0) {
      throw .outOfRange(part: part, value: value, range: range)
    }
  }
}
