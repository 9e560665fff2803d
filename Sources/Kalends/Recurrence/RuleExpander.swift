/// Expands one `ExpansionPlan` lazily into ascending wall-clock times (seconds since 1970), period by
/// period (a year, month, week or day), with RFC 5545 §3.3.10 semantics as python-dateutil's `rrule`
/// implements them: candidate days of a period pass every `BYxxx` filter, are combined with the times
/// of day, `BYSETPOS` picks among them, and results before DTSTART are dropped. Invalid dates never
/// arise, because only real days of the period are candidates.
///
/// It stops at `COUNT`, after `UNTIL`, after year 9999, or after `ExpansionPlan.emptyPeriodLimit`
/// consecutive periods without a candidate (a rule that can never match).
struct RuleExpander {
  private let plan: ExpansionPlan
  private let emptyPeriodLimit: Int64
  private let lastDay = LocalDateTime.max.dayNumber
  /// No period starting after this day is expanded.
  private var lastPeriodDay = LocalDateTime.max.dayNumber

  // The current period: its first day (weekly, daily), or its year and month (monthly, yearly).
  private var year: Int64
  private var month: Int64
  private var day: Int64

  // Candidates of the current period.
  private var days: [Int64] = []
  private var selected: [Int64] = []
  private var ordinalDays: [Int64] = []
  private var dayIndex = 0
  private var timeIndex = 0
  private var selectedIndex = 0

  private var emitted = 0
  private var emptyPeriods: Int64 = 0
  private var finished = false

  // Week numbering of `weekYear`, cached: starts of week 1 of years weekYear-1…weekYear+2.
  private var weekYear: Int64 = .min
  private var weekOneStarts: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)

  /// An expander positioned at the period of DTSTART; with `skippingBefore` and no `COUNT`, at the
  /// last period that begins on or before that wall-clock time instead. With `endingAfter`, it ends
  /// at the first period that begins after that wall-clock time.
  init(plan: ExpansionPlan, skippingBefore target: Int64? = nil, endingAfter last: Int64? = nil) {
    self.plan = plan
    emptyPeriodLimit = plan.emptyPeriodLimit
    if let last { lastPeriodDay = min(lastDay, last.floorDividedWithRemainder(by: 86_400).quotient) }
    finished = plan.neverMatches
    let startDay = plan.start.floorDividedWithRemainder(by: 86_400).quotient
    let (startYear, startMonth, _) = CivilDate.fromDays(startDay)
    year = startYear
    month = startMonth
    day = startDay
    if plan.frequency == .weekly {
      day = startDay - Int64((CivilDate.weekday(startDay) - plan.weekStart + 7) % 7)
    }
    days.reserveCapacity(plan.frequency == .yearly ? 366 : Self.batchDays + 7)
    if let target {
      if case .count = plan.end {} else { fastForward(to: target) }
    }
    fillPeriod()
  }

  /// The next wall-clock time of the rule, ascending, or nil when the rule has ended.
  mutating func next() -> Int64? {
    while !finished {
      guard let candidate = nextCandidate() else {
        advancePeriod()
        fillPeriod()
        continue
      }
      if candidate < plan.start { continue }
      switch plan.end {
      case .never: break
      case .count(let count):
        if emitted >= count {
          finished = true
          return nil
        }
      case .localUntil(let until):
        if candidate > until {
          finished = true
          return nil
        }
      case .utcUntil(let until, let zone):
        if zone.resolve(wallClock: candidate) > until {
          finished = true
          return nil
        }
      }
      emitted += 1
      return candidate
    }
    return nil
  }

  private mutating func nextCandidate() -> Int64? {
    if !plan.setPositions.isEmpty {
      guard selectedIndex < selected.count else { return nil }
      defer { selectedIndex += 1 }
      return selected[selectedIndex]
    }
    guard dayIndex < days.count else { return nil }
    let value = days[dayIndex] * 86_400 + plan.times[timeIndex]
    timeIndex += 1
    if timeIndex == plan.times.count {
      timeIndex = 0
      dayIndex += 1
    }
    return value
  }

  // MARK: Periods

  private mutating func fastForward(to target: Int64) {
    let targetDay = target.floorDividedWithRemainder(by: 86_400).quotient
    let (targetYear, targetMonth, _) = CivilDate.fromDays(min(max(targetDay, day), lastDay))
    switch plan.frequency {
    case .yearly:
      let periods = (targetYear - year) / plan.interval
      if periods > 0 { year += periods * plan.interval }
    case .monthly:
      let periods = ((targetYear * 12 + targetMonth - 1) - (year * 12 + month - 1)) / plan.interval
      if periods > 0 {
        let index = year * 12 + month - 1 + periods * plan.interval
        (year, month) = (index / 12, index % 12 + 1)
      }
    case .weekly:
      let periods = (targetDay - day) / (7 * plan.interval)
      if periods > 0 { day += periods * 7 * plan.interval }
    case .daily:
      let periods = (targetDay - day) / plan.interval
      if periods > 0 { day += periods * plan.interval }
    }
  }

  private mutating func advancePeriod() {
    switch plan.frequency {
    case .yearly: year += plan.interval
    case .monthly:
      let index = year * 12 + month - 1 + plan.interval
      (year, month) = (index / 12, index % 12 + 1)
    case .weekly: day += 7 * plan.interval
    case .daily: day += plan.interval
    }
  }

  private mutating func fillPeriod() {
    days.removeAll(keepingCapacity: true)
    dayIndex = 0
    timeIndex = 0
    if finished { return }
    switch plan.frequency {
    case .yearly:
      guard year <= 9999, CivilDate.days(year: year, month: 1, day: 1) <= lastPeriodDay else { return finish() }
      fillYear()
    case .monthly:
      guard year <= 9999, CivilDate.days(year: year, month: month, day: 1) <= lastPeriodDay else { return finish() }
      if plan.months == 0 || plan.months & (1 << UInt16(month)) != 0 {
        let first = CivilDate.days(year: year, month: month, day: 1)
        let length = CivilDate.daysInMonth(year: year, month: month)
        ordinalDays.removeAll(keepingCapacity: true)
        addOrdinalDays(first: first, last: first + length - 1)
        fillMonth(year: year, month: month, first: first, length: length)
      }
    case .weekly, .daily:
      guard day <= lastPeriodDay else { return finish() }
      let length: Int64 = plan.frequency == .weekly ? 7 : 1
      fillDays(from: day, count: length)
      // A plain daily rule would otherwise fill a period, and clear it, for every occurrence; the
      // periods run on until `batchDays` days are found, the current period being the last one.
      if plan.periodsNeverEmpty {
        let step = length * plan.interval
        while days.count < Self.batchDays, step <= lastPeriodDay - day {
          day += step
          fillDays(from: day, count: length)
        }
      }
    }
    if !plan.setPositions.isEmpty { selectPositions() }
    if plan.setPositions.isEmpty ? days.isEmpty : selected.isEmpty {
      emptyPeriods += 1
      if emptyPeriods >= emptyPeriodLimit { finish() }
    } else {
      emptyPeriods = 0
    }
  }

  /// How many days the periods of a rule whose periods are never empty are filled up to at once.
  private static let batchDays = 64

  private mutating func finish() {
    finished = true
    days.removeAll(keepingCapacity: true)
    selected.removeAll(keepingCapacity: true)
  }

  private mutating func fillYear() {
    ordinalDays.removeAll(keepingCapacity: true)
    if !plan.ordinals.isEmpty, plan.months == 0 {
      let first = CivilDate.days(year: year, month: 1, day: 1)
      addOrdinalDays(first: first, last: first + CivilDate.daysInYear(year) - 1)
    }
    for month in Int64(1)...12 where plan.months == 0 || plan.months & (1 << UInt16(month)) != 0 {
      let first = CivilDate.days(year: year, month: month, day: 1)
      let length = CivilDate.daysInMonth(year: year, month: month)
      if !plan.ordinals.isEmpty, plan.months != 0 { addOrdinalDays(first: first, last: first + length - 1) }
      fillMonth(year: year, month: month, first: first, length: length)
    }
  }

  /// Adds the matching days among the `count` days from `first` (a week or a day).
  private mutating func fillDays(from first: Int64, count: Int64) {
    let end = min(first + count, lastDay + 1)
    var weekday = CivilDate.weekday(first)
    if let mask = plan.weekdayMask, plan.months == 0 {
      for number in first..<end {
        if mask & (1 << UInt8(weekday)) != 0 { days.append(number) }
        weekday = weekday == 6 ? 0 : weekday + 1
      }
      return
    }
    var (y, m, d) = CivilDate.fromDays(first)
    var length = CivilDate.daysInMonth(year: y, month: m)
    for number in first..<end {
      if matches(number, weekday: weekday, year: y, month: m, monthDay: d, monthLength: length) { days.append(number) }
      weekday = weekday == 6 ? 0 : weekday + 1
      d += 1
      if d > length {
        d = 1
        m += 1
        if m > 12 { (y, m) = (y + 1, 1) }
        length = CivilDate.daysInMonth(year: y, month: m)
      }
    }
  }

  /// Adds the matching days of a month (whose `BYMONTH` its callers have checked).
  private mutating func fillMonth(year: Int64, month: Int64, first: Int64, length: Int64) {
    var weekday = CivilDate.weekday(first)
    if let mask = plan.weekdayMask {
      for number in first..<(first + length) {
        if mask & (1 << UInt8(weekday)) != 0 { days.append(number) }
        weekday = weekday == 6 ? 0 : weekday + 1
      }
      return
    }
    for offset in 0..<length {
      let number = first + offset
      if matches(number, weekday: weekday, year: year, month: month, monthDay: offset + 1, monthLength: length) {
        days.append(number)
      }
      weekday = weekday == 6 ? 0 : weekday + 1
    }
  }

  /// Adds the days of `first…last` named by `BYDAY` ordinals (`2MO`, `-1FR`).
  private mutating func addOrdinalDays(first: Int64, last: Int64) {
    for (weekday, ordinal) in plan.ordinals {
      let number: Int64
      if ordinal > 0 {
        number = first + Int64((weekday - CivilDate.weekday(first) + 7) % 7) + Int64(ordinal - 1) * 7
      } else {
        number = last - Int64((CivilDate.weekday(last) - weekday + 7) % 7) + Int64(ordinal + 1) * 7
      }
      if number >= first, number <= last { ordinalDays.append(number) }
    }
  }

  /// Whether day `number` (whose weekday, Monday = 0, is `weekday`) passes every `BYxxx` filter.
  @inline(__always)
  private mutating func matches(
    _ number: Int64, weekday: Int, year: Int64, month: Int64, monthDay: Int64, monthLength: Int64
  ) -> Bool {
    if plan.months != 0, plan.months & (1 << UInt16(month)) == 0 { return false }
    if plan.hasMonthDays,
      plan.monthDays & (1 << UInt32(monthDay)) == 0,
      plan.negativeMonthDays & (1 << UInt32(monthLength - monthDay + 1)) == 0
    {
      return false
    }
    if plan.hasDays, plan.weekdays & (1 << UInt8(weekday)) == 0, !ordinalDays.contains(number) {
      return false
    }
    if plan.hasYearDays {
      let yearDay = Int(number - CivilDate.days(year: year, month: 1, day: 1)) + 1
      let fromEnd = Int(CivilDate.daysInYear(year)) - yearDay + 1
      if plan.yearDays[yearDay / 64] & (1 << UInt64(yearDay % 64)) == 0,
        plan.negativeYearDays[fromEnd / 64] & (1 << UInt64(fromEnd % 64)) == 0
      {
        return false
      }
    }
    if plan.hasWeekNumbers, !weekNumberMatches(number, year: year) { return false }
    return true
  }

  /// Whether the day's week number (weeks start on WKST; week 1 is the first with at least four days
  /// of the year) is in `BYWEEKNO`. Days of this calendar year in the previous year's last week or
  /// the next year's first week match those weeks' numbers.
  private mutating func weekNumberMatches(_ number: Int64, year: Int64) -> Bool {
    if year != weekYear {
      weekYear = year
      weekOneStarts = (weekOne(year - 1), weekOne(year), weekOne(year + 1), weekOne(year + 2))
    }
    let (previous, current, next, afterNext) = weekOneStarts
    let week: Int64
    let weeks: Int64
    if number < current {
      weeks = (current - previous) / 7
      week = (number - previous) / 7 + 1
    } else if number >= next {
      weeks = (afterNext - next) / 7
      week = (number - next) / 7 + 1
    } else {
      weeks = (next - current) / 7
      week = (number - current) / 7 + 1
    }
    return plan.weekNumbers & (1 << UInt64(week)) != 0
      || plan.negativeWeekNumbers & (1 << UInt64(weeks - week + 1)) != 0
  }

  /// The first day of week 1 of `year`: the WKST day on or before January 4.
  private func weekOne(_ year: Int64) -> Int64 {
    let january4 = CivilDate.days(year: year, month: 1, day: 4)
    return january4 - Int64((CivilDate.weekday(january4) - plan.weekStart + 7) % 7)
  }

  /// Applies `BYSETPOS` to the period's candidates (days × times, ascending).
  private mutating func selectPositions() {
    selected.removeAll(keepingCapacity: true)
    selectedIndex = 0
    let timeCount = plan.times.count
    let total = days.count * timeCount
    for position in plan.setPositions {
      let index = position > 0 ? position - 1 : total + position
      guard index >= 0, index < total else { continue }
      selected.append(days[index / timeCount] * 86_400 + plan.times[index % timeCount])
    }
    if selected.count > 1 {
      selected.sort()
      var unique = 1
      for index in 1..<selected.count where selected[index] != selected[unique - 1] {
        selected[unique] = selected[index]
        unique += 1
      }
      selected.removeLast(selected.count - unique)
    }
  }
}
