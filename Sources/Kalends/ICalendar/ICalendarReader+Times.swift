extension ICalendarReader {
  /// A time placed as Kalends stores it: a wall-clock time and its IANA zone (`nil`: floating or a
  /// date). UTC times are kept in zone `UTC`; a zone the file defines but no IANA zone matches is
  /// converted to UTC through its definition. With `X-WR-TIMEZONE`, event times in UTC move to
  /// that zone and floating ones are read in it.
  mutating func place(_ time: ICalendarTime, line: Int, inEvent: Bool = true) throws(ICalendarError) -> (
    local: LocalDateTime, zone: ZoneRules?
  ) {
    switch time {
    case .date(let date):
      return (date, nil)
    case .floating(let local):
      if inEvent, let calendarZone { return (local, calendarZone) }
      return (local, nil)
    case .utc(let local):
      let zone = inEvent ? calendarZone ?? .utc : .utc
      return (try Self.wallClock(zone, local.wallClockSeconds, line), zone)
    case .zoned(let local, let tzid):
      switch try zones.zone(tzid, line: line) {
      case .iana(let zone): return (local, zone)
      case .custom(let definition): return (try Self.wallClock(.utc, definition.resolve(local), line), .utc)
      }
    }
  }

  /// The instant of a time (floating and dates read in UTC).
  mutating func instant(_ time: ICalendarTime, line: Int) throws(ICalendarError) -> Int64 {
    let placed = try place(time, line: line, inEvent: false)
    return (placed.zone ?? .utc).resolve(placed.local)
  }

  /// A time of an event's series (`EXDATE`, `RDATE`, `RECURRENCE-ID`) as the wall-clock time of
  /// `series`' start: in its zone, on its dates (a date for a timed series gets the start's time of
  /// day), or as written for a floating series.
  mutating func convert(_ time: ICalendarTime, line: Int, like series: Event) throws(ICalendarError)
    -> LocalDateTime
  {
    let placed = try place(time, line: line)
    let start = series.start ?? placed.local
    if series.isAllDay { return LocalDateTime(unchecked: placed.local.dayNumber * 86_400) }
    if time.isDate {
      return LocalDateTime(unchecked: placed.local.dayNumber * 86_400 + start.secondOfDay)
    }
    guard let name = series.timeZone, let target = try? ZoneRules.named(name), let zone = placed.zone else {
      return placed.local
    }
    if zone == target { return placed.local }
    return try Self.wallClock(target, zone.resolve(placed.local), line)
  }

  static func wallClock(_ zone: ZoneRules, _ utc: Int64, _ line: Int) throws(ICalendarError) -> LocalDateTime {
    guard let local = zone.localDateTime(atUTC: utc) else {
      throw ICalendarError(line: line, .invalidValue(property: "a time", value: "\(utc)", expected: "in years 1…9999"))
    }
    return local
  }
}
