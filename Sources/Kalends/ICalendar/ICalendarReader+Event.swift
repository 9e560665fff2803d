extension ICalendarReader {
  /// Properties of a `VEVENT` read into ``Event`` fields; the rest are kept verbatim.
  private static let eventProperties: Set<String> = [
    "UID", "DTSTAMP", "DTSTART", "DTEND", "DURATION", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "CATEGORIES",
    "CREATED", "LAST-MODIFIED", "SEQUENCE", "RRULE", "EXDATE", "RDATE", "RECURRENCE-ID",
  ]

  /// One `VEVENT` as an event (its `RECURRENCE-ID`, if any, is the caller's).
  mutating func event(_ component: ICalendarComponent, uid: String) throws(ICalendarError) -> Event {
    guard let startLine = component.property("DTSTART") else {
      throw ICalendarError(line: component.line, .missingProperty(component: "VEVENT", property: "DTSTART"))
    }
    let startTime = try ICalendarTime.parse(startLine)
    let start = try place(startTime, line: startLine.line)
    var event = Event(
      calendarID: nil, title: "", start: start.local, end: nil, timeZone: start.zone?.identifier,
      isAllDay: startTime.isDate)
    event.externalID = uid
    if let endLine = component.property("DTEND") {
      event.end = try convert(ICalendarTime.parse(endLine), line: endLine.line, like: event)
    } else if let line = component.property("DURATION") {
      guard let duration = ICalendarText.duration(line.value), duration.days >= 0, duration.seconds >= 0 else {
        throw ICalendarError(
          line: line.line,
          .invalidValue(property: "DURATION", value: line.value, expected: "a positive duration (PT1H)"))
      }
      event.end = try Self.adding(duration, to: start.local, in: event.isAllDay ? nil : start.zone, line: line.line)
      event.endProperty = .duration
    } else {
      event.end = LocalDateTime(unchecked: start.local.wallClockSeconds + (event.isAllDay ? 86_400 : 0))
      event.endProperty = .implied
    }
    for line in component.properties {
      switch line.name {
      case "SUMMARY": event.title = ICalendarText.unescaped(line.value)
      case "DESCRIPTION": event.notes = ICalendarText.unescaped(line.value)
      case "LOCATION": event.location = ICalendarText.unescaped(line.value)
      case "URL": event.url = line.value
      case "CATEGORIES": event.categories += ICalendarText.list(line.value)
      case "CREATED":
        event.creationDate = Timestamp(rawValue: try instant(ICalendarTime.parse(line), line: line.line) * 1_000_000)
      case "LAST-MODIFIED": _ = try ICalendarTime.parse(line)
      case "SEQUENCE": event.sequence = try Self.integer(line, in: 0...Int(Int32.max))
      case "RRULE": event.recurrenceRules.append(try Self.rule(line, for: event))
      case "EXDATE":
        for time in try ICalendarTime.parseList(line) {
          event.exceptionDates.append(try convert(time, line: line.line, like: event))
        }
      case "RDATE":
        for time in try ICalendarTime.parseList(line) {
          event.recurrenceDates.append(try convert(time, line: line.line, like: event))
        }
      case "STATUS":
        switch line.value.uppercased() {
        case "CONFIRMED": event.status = .confirmed
        case "TENTATIVE": event.status = .tentative
        case "CANCELLED": event.status = .canceled
        default: event.additionalProperties.append(line.text)
        }
      case "TRANSP":
        switch line.value.uppercased() {
        case "OPAQUE": event.availability = .busy
        case "TRANSPARENT": event.availability = .free
        default: event.additionalProperties.append(line.text)
        }
      case let name where Self.eventProperties.contains(name): break
      default: event.additionalProperties.append(line.text)
      }
    }
    let duration = (event.end?.wallClockSeconds ?? 0) - (event.start?.wallClockSeconds ?? 0)
    for alarm in component.components where alarm.name == "VALARM" {
      event.alarms.append(try self.alarm(alarm, start: start, duration: duration, of: event.title))
    }
    return event
  }

  /// `local` plus a DURATION: its days on the wall clock, its time exactly (RFC 5545 §3.3.6).
  static func adding(
    _ duration: (days: Int64, seconds: Int64), to local: LocalDateTime, in zone: ZoneRules?, line: Int
  ) throws(ICalendarError) -> LocalDateTime {
    let days = local.wallClockSeconds + duration.days * 86_400
    guard let zone else { return LocalDateTime(unchecked: days + duration.seconds) }
    return try wallClock(zone, zone.resolve(LocalDateTime(unchecked: days)) + duration.seconds, line)
  }

  /// An alarm: `TRIGGER` as a duration from the start (or with `RELATED=END` the end), or an instant;
  /// every other line kept (``Alarm/additionalProperties``) but those the writer writes anyway for
  /// an item titled `title` (`ACTION:DISPLAY`, and a `DESCRIPTION` of the title).
  mutating func alarm(
    _ component: ICalendarComponent, start: (local: LocalDateTime, zone: ZoneRules?), duration: Int64,
    of title: String
  ) throws(ICalendarError) -> Alarm {
    var alarm = try trigger(component, start: start, duration: duration)
    let display = component.properties("ACTION").allSatisfy { $0.value.uppercased() == "DISPLAY" }
    let description = ICalendarText.escaped(Alarm.description(of: title))
    alarm.additionalProperties = component.properties.filter { line in
      switch line.name {
      case "TRIGGER": false
      case "ACTION": line.value.uppercased() != "DISPLAY" || !line.parameters.isEmpty
      case "DESCRIPTION": !display || line.value != description || !line.parameters.isEmpty
      default: true
      }
    }.map(\.text)
    return alarm
  }

  /// The offset of an alarm's `TRIGGER`.
  private mutating func trigger(
    _ component: ICalendarComponent, start: (local: LocalDateTime, zone: ZoneRules?), duration: Int64
  ) throws(ICalendarError) -> Alarm {
    guard let trigger = component.property("TRIGGER") else {
      throw ICalendarError(line: component.line, .missingProperty(component: "VALARM", property: "TRIGGER"))
    }
    if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
      let at = try instant(ICalendarTime.parse(trigger), line: trigger.line)
      return Alarm(relativeOffset: at - (start.zone ?? .utc).resolve(start.local))
    }
    guard let offset = ICalendarText.duration(trigger.value) else {
      throw ICalendarError(
        line: trigger.line, .invalidValue(property: "TRIGGER", value: trigger.value, expected: "a duration (-PT15M)"))
    }
    let related = trigger.parameter("RELATED")?.uppercased() == "END" ? duration : 0
    return Alarm(relativeOffset: offset.days * 86_400 + offset.seconds + related)
  }

  /// An integer property in `range`.
  static func integer(_ line: ContentLine, in range: ClosedRange<Int>) throws(ICalendarError) -> Int {
    guard let value = Int(line.value.trimmingWhitespace()), range.contains(value) else {
      throw ICalendarError(
        line: line.line,
        .invalidValue(
          property: line.name, value: line.value, expected: "an integer \(range.lowerBound)…\(range.upperBound)"))
    }
    return value
  }

  /// An `RRULE`, its `UNTIL` brought to the form RFC 5545 requires for the event's start (UTC for a
  /// zoned start, a date for an all-day one, a wall-clock time for a floating one) without changing
  /// which occurrences it allows.
  static func rule(_ line: ContentLine, for event: Event) throws(ICalendarError) -> RecurrenceRule {
    var rule: RecurrenceRule
    do {
      rule = try RecurrenceRule(parsing: line.value)
    } catch {
      throw ICalendarError(line: line.line, .invalidRecurrenceRule(error.description))
    }
    return normalized(rule, for: event)
  }

  /// `rule` with its `UNTIL` in the form RFC 5545 requires for `event`'s start.
  static func normalized(_ rule: RecurrenceRule, for event: Event) -> RecurrenceRule {
    var rule = rule
    guard let until = rule.until else { return rule }
    let zone = event.timeZone.flatMap { try? ZoneRules.named($0) }
    if event.isAllDay {
      switch until {
      case .utc(let seconds):
        rule.until = .date(LocalDateTime(unchecked: seconds.floorDividedWithRemainder(by: 86_400).quotient * 86_400))
      case .floating(let time): rule.until = .date(LocalDateTime(unchecked: time.dayNumber * 86_400))
      case .date: break
      }
    } else if let zone {
      switch until {
      case .date(let date): rule.until = .utc(zone.resolve(LocalDateTime(unchecked: date.wallClockSeconds + 86_399)))
      case .floating(let time): rule.until = .utc(zone.resolve(time))
      case .utc: break
      }
    } else {
      switch until {
      case .utc(let seconds): rule.until = .floating(LocalDateTime(unchecked: seconds))
      case .date(let date): rule.until = .floating(LocalDateTime(unchecked: date.wallClockSeconds + 86_399))
      case .floating: break
      }
    }
    return rule
  }
}
