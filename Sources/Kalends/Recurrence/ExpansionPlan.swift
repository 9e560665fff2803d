/// A rule prepared for expansion from one DTSTART: the defaults RFC 5545 implies filled in (as
/// python-dateutil fills them), lists turned into bit sets, times of day listed.
struct ExpansionPlan: Sendable {
  /// How the rule ends, in the terms the expander can check.
  enum End: Sendable {
    case never
    case count(Int)
    /// Inclusive bound on the wall clock.
    case localUntil(Int64)
    /// Inclusive bound on the instant the wall clock resolves to in `zone`.
    case utcUntil(Int64, ZoneRules)
  }

  let frequency: RecurrenceRule.Frequency
  let interval: Int64
  let end: End
  let start: Int64
  let weekStart: Int
  /// Bit `m` for each month 1…12; 0 when months are not restricted.
  let months: UInt16
  /// Bit `n` for `BYWEEKNO=n`, and for `BYWEEKNO=-n` in `negativeWeekNumbers`.
  let weekNumbers: UInt64
  let negativeWeekNumbers: UInt64
  /// Bit `n` (word n / 64) for `BYYEARDAY=n`, and for `BYYEARDAY=-n` in `negativeYearDays`.
  let yearDays: [UInt64]
  let negativeYearDays: [UInt64]
  let hasYearDays: Bool
  /// Bit `d` for `BYMONTHDAY=d`, and for `BYMONTHDAY=-d` in `negativeMonthDays`.
  let monthDays: UInt32
  let negativeMonthDays: UInt32
  /// Bit `w` (Monday = 0) for each plain `BYDAY` weekday.
  let weekdays: UInt8
  /// `BYDAY` entries with an ordinal.
  let ordinals: [(weekday: Int, ordinal: Int)]
  let setPositions: [Int]
  /// Seconds after midnight of each occurrence in a day, ascending.
  let times: [Int64]

  var hasWeekNumbers: Bool { weekNumbers | negativeWeekNumbers != 0 }
  var hasMonthDays: Bool { monthDays | negativeMonthDays != 0 }
  var hasDays: Bool { weekdays != 0 || !ordinals.isEmpty }
  /// The days every filter but `BYMONTH` lets through, as a weekday mask (bit `w`, Monday = 0), when
  /// that is all they depend on (no ordinals, month days, year days or week numbers); nil otherwise.
  /// Expanders then pick days by weekday alone, the common case (`BYDAY=MO,WE,FR`, or no filter).
  let weekdayMask: UInt8?
  /// Whether every period yields a day: a daily rule without day filters, or a weekly one filtered
  /// by weekday alone (a week holds every weekday), and no `BYSETPOS`. Expanders then fill several
  /// periods at once, which changes nothing else: no run of empty periods ever ends such a rule.
  let periodsNeverEmpty: Bool

  init(rule: RecurrenceRule, start: LocalDateTime, end: End) {
    let (startYear, startMonth, startDay) = CivilDate.fromDays(start.dayNumber)
    _ = startYear
    frequency = rule.frequency
    interval = Int64(rule.interval)
    self.end = end
    self.start = start.wallClockSeconds
    weekStart = rule.weekStart.rawValue
    var months = rule.byMonth
    var monthDays = rule.byMonthDay
    var weekdays = rule.byDay.filter { $0.ordinal == nil }.map(\.weekday.rawValue)
    if rule.byWeekNumber.isEmpty, rule.byYearDay.isEmpty, rule.byMonthDay.isEmpty, rule.byDay.isEmpty {
      switch rule.frequency {
      case .yearly:
        if months.isEmpty { months = [Int(startMonth)] }
        monthDays = [Int(startDay)]
      case .monthly: monthDays = [Int(startDay)]
      case .weekly: weekdays = [start.weekday.rawValue]
      case .daily: break
      }
    }
    self.months = months.reduce(0) { $0 | UInt16(1) << $1 }
    weekNumbers = rule.byWeekNumber.filter { $0 > 0 }.reduce(0) { $0 | UInt64(1) << $1 }
    negativeWeekNumbers = rule.byWeekNumber.filter { $0 < 0 }.reduce(0) { $0 | UInt64(1) << -$1 }
    // Most rules have no BYYEARDAY: they share one empty mask instead of allocating two.
    var yearDays = Self.noYearDays
    var negativeYearDays = Self.noYearDays
    for day in rule.byYearDay {
      if day > 0 { yearDays[day / 64] |= 1 << (day % 64) } else { negativeYearDays[-day / 64] |= 1 << (-day % 64) }
    }
    self.yearDays = yearDays
    self.negativeYearDays = negativeYearDays
    hasYearDays = !rule.byYearDay.isEmpty
    self.monthDays = monthDays.filter { $0 > 0 }.reduce(0) { $0 | UInt32(1) << $1 }
    negativeMonthDays = monthDays.filter { $0 < 0 }.reduce(0) { $0 | UInt32(1) << -$1 }
    self.weekdays = weekdays.reduce(0) { $0 | UInt8(1) << $1 }
    ordinals = rule.byDay.compactMap { day in day.ordinal.map { (day.weekday.rawValue, $0) } }
    setPositions = rule.bySetPosition
    let onlyWeekdays = ordinals.isEmpty && monthDays.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty
    weekdayMask = onlyWeekdays ? (self.weekdays == 0 ? 0x7F : self.weekdays) : nil
    periodsNeverEmpty =
      setPositions.isEmpty && self.months == 0
      && (frequency == .daily ? weekdayMask == 0x7F : frequency == .weekly && weekdayMask != nil)
    if rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty {
      // The usual case, DTSTART's time of day alone, without the lists below.
      times = [Int64(start.hour * 3600 + start.minute * 60 + start.second)]
      return
    }
    let hours = rule.byHour.isEmpty ? [start.hour] : rule.byHour
    let minutes = rule.byMinute.isEmpty ? [start.minute] : rule.byMinute
    let seconds = rule.bySecond.isEmpty ? [start.second] : rule.bySecond
    var times: [Int64] = []
    times.reserveCapacity(hours.count * minutes.count * seconds.count)
    for hour in hours {
      for minute in minutes {
        for second in seconds { times.append(Int64(hour * 3600 + minute * 60 + second)) }
      }
    }
    self.times = times.sorted()
  }

  /// The year-day masks of a rule without `BYYEARDAY`.
  private static let noYearDays = [UInt64](repeating: 0, count: 6)

  /// Whether `BYSETPOS` asks only for positions beyond the most candidates a period can have, so the
  /// rule yields nothing.
  var neverMatches: Bool {
    guard !setPositions.isEmpty else { return false }
    let days: Int =
      switch frequency {
      case .yearly: 366
      case .monthly: 31
      case .weekly: 7
      case .daily: 1
      }
    let most = days * times.count
    return setPositions.allSatisfy { abs($0) > most }
  }

  /// How many consecutive periods may yield nothing before the rule provably yields nothing ever:
  /// the Gregorian calendar repeats exactly every 400 years (146,097 days, 20,871 weeks, 4,800
  /// months), so a rule that matches nothing in one whole cycle of its periods never matches.
  var emptyPeriodLimit: Int64 {
    let cycle: Int64 =
      switch frequency {
      case .yearly: 400
      case .monthly: 4800
      case .weekly: 20_871
      case .daily: 146_097
      }
    var (a, b) = (cycle, interval)
    while b != 0 { (a, b) = (b, a % b) }
    return cycle / a
  }
}
