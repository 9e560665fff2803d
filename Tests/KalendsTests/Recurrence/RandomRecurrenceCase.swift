import Kalends
import KalendsSynthetic

/// A random recurrence set for the oracle: a rule covering the RRULE parts at random, a DTSTART in a
/// zone with daylight-saving time (or floating, or all-day), RDATEs and EXDATEs.
struct RandomRecurrenceCase {
  static let zones = ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo"]

  var oracle: OracleCase
  var set: RecurrenceSet
  var rules: [RecurrenceRule]

  init(id: Int, using random: inout SeededGenerator) throws {
    let kind = random.pick(["zoned", "zoned", "zoned", "zoned", "floating", "allday"])
    let zoneName = kind == "zoned" ? random.pick(Self.zones) : nil
    let start = Self.randomStart(allDay: kind == "allday", using: &random)
    var rules = [try Self.randomRule(start: start, kind: kind, allowUntil: true, using: &random)]
    if random.chance(0.05) {
      rules.append(try Self.randomRule(start: start, kind: kind, allowUntil: false, using: &random))
    }
    var rdates: [LocalDateTime] = []
    var exdates: [LocalDateTime] = []
    let day: Int64 = 86_400
    if random.chance(0.2) {
      for _ in 0..<random.int(1...2) {
        var seconds = start.wallClockSeconds + Int64(random.int(1...400)) * day
        if kind != "allday", random.chance(0.5) {
          seconds += Int64(random.int(0...23) * 3600) - Int64(start.hour * 3600)
        }
        rdates.append(LocalDateTime(wallClockSeconds: seconds)!)
      }
    }
    if random.chance(0.3) {
      for _ in 0..<random.int(1...2) {
        let step = random.pick([Int64(0), 1, 7, 14, 28, 30, 31, 365])
        exdates.append(LocalDateTime(wallClockSeconds: start.wallClockSeconds + step * Int64(random.int(0...3)) * day)!)
      }
      if let rdate = rdates.first, random.chance(0.3) { exdates.append(rdate) }
    }
    let zone = try zoneName.map { try ZoneRules.named($0) }
    set = try RecurrenceSet(
      start: start, isAllDay: kind == "allday", zone: zone, duration: 0, rules: rules, recurrenceDates: rdates,
      exceptionDates: exdates)
    self.rules = rules
    oracle = OracleCase(
      id: id, kind: kind, zone: zoneName, dtstart: start.iCalendarText, rules: rules.map(\.description),
      rdates: rdates.map(\.iCalendarText), exdates: exdates.map(\.iCalendarText), limit: 25, after: nil,
      horizonYear: start.year + 30)
  }

  /// A start in 1995…2030, often in a month with a daylight-saving change and at an hour near one.
  static func randomStart(allDay: Bool, using random: inout SeededGenerator) -> LocalDateTime {
    let year = random.int(1995...2030)
    let month = random.chance(0.5) ? random.pick([2, 3, 4, 9, 10, 11, 12]) : random.int(1...12)
    let day = random.chance(0.1) ? random.pick([29, 30, 31]) : random.int(1...28)
    let hour = allDay ? 0 : (random.chance(0.4) ? random.int(0...3) : random.int(0...23))
    let minute = allDay ? 0 : random.pick([0, 0, 30, 15, random.int(0...59)])
    let second = allDay || random.chance(0.9) ? 0 : random.int(0...59)
    return LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
      ?? LocalDateTime(year: year, month: month, day: 28, hour: hour, minute: minute, second: second)!
  }

  static func randomRule(start: LocalDateTime, kind: String, allowUntil: Bool, using random: inout SeededGenerator)
    throws -> RecurrenceRule
  {
    let frequency = random.pick(RecurrenceRule.Frequency.allCases)
    let interval = random.chance(0.5) ? 1 : random.int(2...4)
    var count: Int?
    var until: RecurrenceRule.Until?
    let ending = random.int(0...99)
    if ending < 35 {
      count = random.int(1...30)
    } else if ending < 70, allowUntil {
      let end = LocalDateTime(
        wallClockSeconds: start.wallClockSeconds + Int64(random.int(1...3650)) * 86_400 + Int64(random.int(0...86_399)))!
      switch random.int(0...2) {
      case 0: until = .date(LocalDateTime(wallClockSeconds: end.wallClockSeconds / 86_400 * 86_400)!)
      case 1 where kind == "zoned": until = .utc(end.wallClockSeconds)
      case 1: until = .floating(end)
      default: until = kind == "zoned" ? .utc(end.wallClockSeconds) : .floating(end)
      }
    }
    func signed(_ range: ClosedRange<Int>) -> Int {
      let value = random.int(range)
      return random.chance(0.3) ? -value : value
    }
    func some(_ make: () -> Int) -> [Int] { (0..<random.int(1...3)).map { _ in make() } }
    var byMonth: [Int] = []
    var byWeekNumber: [Int] = []
    var byYearDay: [Int] = []
    var byMonthDay: [Int] = []
    var byDay: [RecurrenceWeekday] = []
    var byHour: [Int] = []
    var byMinute: [Int] = []
    var bySecond: [Int] = []
    var bySetPosition: [Int] = []
    if random.chance(0.25) { byMonth = some { random.int(1...12) } }
    if frequency == .yearly, random.chance(0.2) {
      byWeekNumber = some {
        random.chance(0.1)
          ? random.pick([52, 53, -52, -53]) : (random.chance(0.3) ? random.pick([1, -1, 2]) : signed(1...51))
      }
    }
    if frequency == .yearly, random.chance(0.15) {
      byYearDay = some { random.chance(0.3) ? random.pick([1, -1, 60, 365, 366, -366]) : signed(1...366) }
    }
    if frequency != .weekly, random.chance(0.3) {
      byMonthDay = some { random.chance(0.3) ? random.pick([1, -1, 29, 30, 31, -31]) : signed(1...31) }
    }
    if random.chance(0.45) {
      let ordinals = (frequency == .monthly || frequency == .yearly) && byWeekNumber.isEmpty && random.chance(0.5)
      let mixed = ordinals && random.chance(0.1)
      let maximum = frequency == .yearly && byMonth.isEmpty ? 53 : 5
      byDay = (0..<random.int(1...3)).map { index in
        let weekday = random.pick(Weekday.allCases)
        guard ordinals, !(mixed && index == 0) else { return RecurrenceWeekday(weekday) }
        return RecurrenceWeekday(
          weekday, ordinal: random.chance(0.7) ? signed(1...min(maximum, 5)) : signed(1...maximum))
      }
    }
    if kind != "allday" {
      if random.chance(0.1) { byHour = some { random.int(0...23) } }
      if random.chance(0.08) { byMinute = some { random.pick([0, 30, random.int(0...59)]) } }
      if random.chance(0.05) { bySecond = some { random.int(0...59) } }
    }
    let selects =
      !(byMonth.isEmpty && byWeekNumber.isEmpty && byYearDay.isEmpty && byMonthDay.isEmpty && byDay.isEmpty
      && byHour.isEmpty && byMinute.isEmpty && bySecond.isEmpty)
    if selects, random.chance(0.3) {
      bySetPosition = (0..<random.int(1...2)).map { _ in
        random.chance(0.8) ? random.pick([1, 2, 3, -1, -2]) : signed(1...366)
      }
    }
    let weekStart = random.chance(0.3) ? random.pick(Weekday.allCases) : .monday
    return try RecurrenceRule(
      frequency: frequency, interval: interval, count: count, until: until, byMonth: byMonth,
      byWeekNumber: byWeekNumber, byYearDay: byYearDay, byMonthDay: byMonthDay, byDay: byDay, byHour: byHour,
      byMinute: byMinute, bySecond: bySecond, bySetPosition: bySetPosition, weekStart: weekStart)
  }
}
