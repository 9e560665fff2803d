extension ICalendar {
  /// The calendar as RFC 5545 text: CRLF line ends, lines folded at 75 octets, a `VTIMEZONE` for
  /// every zone used (its transitions in the years the items use), each series with its detached
  /// occurrences as `RECURRENCE-ID` overrides, `EXDATE`s and `RDATE`s, and every property kept from
  /// an import. An item's `DTSTAMP` is its last change in the store (``Event/lastModifiedDate``: RFC
  /// 5545 §3.8.7.2 for an object without `METHOD`), so the text of an unchanged item is the same
  /// bytes whenever it is written (what a strong entity tag promises); `stamp` is that of items
  /// never saved.
  public func serialized(productID: String = "-//Kalends//Kalends//EN", stamp: Timestamp = .now()) -> String {
    var writer = ICalendarWriter()
    beginCalendar(productID: productID, to: &writer)
    for (zone, years) in zonesUsed().sorted(by: { $0.key < $1.key }) {
      guard let rules = try? ZoneRules.named(zone) else { continue }
      VTimeZoneWriter.write(rules, years: years, to: &writer)
    }
    for event in events { write(event, stamp: stamp, to: &writer) }
    for reminder in reminders { write(reminder, stamp: stamp, to: &writer) }
    writer.end("VCALENDAR")
    return writer.text
  }

  /// Opens the `VCALENDAR` with its version, product, scale and name.
  func beginCalendar(productID: String, to writer: inout ICalendarWriter) {
    writer.begin("VCALENDAR")
    writer.line("VERSION", "2.0")
    writer.line("PRODID", productID)
    writer.line("CALSCALE", "GREGORIAN")
    writer.text("X-WR-CALNAME", name)
  }

  /// Every zone the items use (but UTC), with the years their times and recurrences span.
  private func zonesUsed() -> [String: ClosedRange<Int>] {
    var zones: [String: ClosedRange<Int>] = [:]
    func note(_ zone: String?, _ dates: [LocalDateTime?]) {
      guard let zone, zone != "UTC" else { return }
      for date in dates.compactMap({ $0 }) {
        let known = zones[zone]
        zones[zone] = min(known?.lowerBound ?? date.year, date.year)...max(known?.upperBound ?? date.year, date.year)
      }
    }
    for event in events {
      var dates = [event.start, event.end] + event.recurrenceDates + event.exceptionDates
      for rule in event.recurrenceRules {
        switch rule.until {
        case .utc(let seconds): dates.append(LocalDateTime(wallClockSeconds: seconds))
        case .date(let date), .floating(let date): dates.append(date)
        case nil:
          if let start = event.start { dates.append(LocalDateTime(year: start.year + 10, month: 1, day: 1)) }
        }
      }
      note(event.timeZone, dates)
      for detached in event.detachedOccurrences.values {
        note(detached.timeZone, [detached.start, detached.end])
        note(event.timeZone, [detached.occurrenceDate])
      }
    }
    for reminder in reminders { note(reminder.timeZone, [reminder.startDate, reminder.dueDate]) }
    return zones
  }

  private func write(_ event: Event, stamp: Timestamp, to writer: inout ICalendarWriter) {
    writer.begin("VEVENT")
    writer.text("UID", event.externalID)
    writer.timestamp("DTSTAMP", event.lastModifiedDate ?? stamp)
    writeOccurrenceFields(event, to: &writer)
    for rule in event.recurrenceRules {
      writer.line("RRULE", ICalendarReader.normalized(rule, for: event).description)
    }
    let zone = event.isAllDay ? nil : event.timeZone
    writer.time("EXDATE", event.exceptionDates.sorted(), zone: zone, isDate: event.isAllDay)
    writer.time("RDATE", event.recurrenceDates.sorted(), zone: zone, isDate: event.isAllDay)
    writer.timestamp("CREATED", event.creationDate)
    writer.timestamp("LAST-MODIFIED", event.lastModifiedDate)
    writeExtras(event, to: &writer)
    writer.end("VEVENT")
    for (date, detached) in event.detachedOccurrences.sorted(by: { $0.key < $1.key }) {
      writer.begin("VEVENT")
      writer.text("UID", event.externalID)
      writer.timestamp("DTSTAMP", event.lastModifiedDate ?? stamp)
      writer.time("RECURRENCE-ID", [date], zone: zone, isDate: event.isAllDay)
      writeOccurrenceFields(detached, to: &writer)
      writeExtras(detached, to: &writer)
      writer.end("VEVENT")
    }
  }

  func writeOccurrenceFields(_ event: Event, to writer: inout ICalendarWriter) {
    let zone = event.isAllDay ? nil : event.timeZone
    if let start = event.start { writer.time("DTSTART", [start], zone: zone, isDate: event.isAllDay) }
    if let start = event.start, let end = event.end {
      writeEnd(end, of: event, from: start, zone: zone, to: &writer)
    } else if let end = event.end {
      writer.time("DTEND", [end], zone: zone, isDate: event.isAllDay)
    }
    if event.sequence != 0 { writer.line("SEQUENCE", "\(event.sequence)") }
    writer.text("SUMMARY", event.title)
    writer.text("DESCRIPTION", event.notes)
    writer.text("LOCATION", event.location)
    if let url = event.url, !url.isEmpty { writer.line("URL", url) }
    switch event.status {
    case .none: break
    case .confirmed: writer.line("STATUS", "CONFIRMED")
    case .tentative: writer.line("STATUS", "TENTATIVE")
    case .canceled: writer.line("STATUS", "CANCELLED")
    }
    switch event.availability {
    case .notSupported: break
    case .free: writer.line("TRANSP", "TRANSPARENT")
    case .busy, .tentative, .unavailable: writer.line("TRANSP", "OPAQUE")
    }
    if !event.categories.isEmpty {
      writer.line("CATEGORIES", event.categories.map(ICalendarText.escaped).joined(separator: ","))
    }
  }

  /// The end of `event` as it was written (``Event/endProperty``): `DTEND`; a `DURATION` of whole
  /// days for an all-day event, else of exact time; or nothing while the end is the one implied.
  private func writeEnd(
    _ end: LocalDateTime, of event: Event, from start: LocalDateTime, zone: String?, to writer: inout ICalendarWriter
  ) {
    switch event.endProperty {
    case .implied where end.wallClockSeconds == start.wallClockSeconds + (event.isAllDay ? 86_400 : 0):
      return
    case .duration where end >= start:
      if event.isAllDay {
        writer.line("DURATION", "P\((end.wallClockSeconds - start.wallClockSeconds) / 86_400)D")
        return
      }
      let rules = zone.flatMap { try? ZoneRules.named($0) } ?? .utc
      let seconds = rules.resolve(end) - rules.resolve(start)
      var text = "PT"
      if seconds >= 3600 { text += "\(seconds / 3600)H" }
      if seconds % 3600 >= 60 { text += "\(seconds % 3600 / 60)M" }
      if seconds % 60 > 0 || seconds == 0 { text += "\(seconds % 60)S" }
      writer.line("DURATION", text)
    default:
      writer.time("DTEND", [end], zone: zone, isDate: event.isAllDay)
    }
  }

  func writeExtras(_ event: Event, to writer: inout ICalendarWriter) {
    for property in event.additionalProperties { writer.raw(property) }
    for alarm in event.alarms { writer.alarm(alarm, description: event.title) }
  }

  /// Writes `reminder` as a `VTODO`; with `recurrenceID`, as the instance of a series that
  /// originally fell then (its zone `UTC`, or `nil` when floating or a date).
  func write(
    _ reminder: Reminder, stamp: Timestamp, recurrenceID: (LocalDateTime, zone: String?)? = nil,
    to writer: inout ICalendarWriter
  ) {
    writer.begin("VTODO")
    writer.text("UID", reminder.externalID)
    writer.timestamp("DTSTAMP", reminder.lastModifiedDate ?? stamp)
    if let (local, zone) = recurrenceID {
      writer.time("RECURRENCE-ID", [local], zone: zone, isDate: reminder.isDueDateOnly)
    }
    writer.text("SUMMARY", reminder.title)
    writer.text("DESCRIPTION", reminder.notes)
    let zone = reminder.isDueDateOnly ? nil : reminder.timeZone
    if let start = reminder.startDate {
      writer.time("DTSTART", [start], zone: zone, isDate: reminder.isDueDateOnly)
    }
    if let due = reminder.dueDate {
      writer.time("DUE", [due], zone: zone, isDate: reminder.isDueDateOnly)
    }
    if reminder.priority != 0 { writer.line("PRIORITY", "\(reminder.priority)") }
    if reminder.isCompleted {
      writer.line("STATUS", "COMPLETED")
      writer.timestamp("COMPLETED", reminder.completionDate)
    } else if !reminder.additionalProperties.contains(where: { $0.uppercased().hasPrefix("STATUS") }) {
      writer.line("STATUS", "NEEDS-ACTION")
    }
    if reminder.sequence != 0 { writer.line("SEQUENCE", "\(reminder.sequence)") }
    var due = Event(
      calendarID: nil, title: "", start: reminder.dueDate, end: reminder.dueDate, timeZone: reminder.timeZone)
    due.isAllDay = reminder.isDueDateOnly
    for rule in reminder.recurrenceRules {
      writer.line("RRULE", ICalendarReader.normalized(rule, for: due).description)
    }
    writer.timestamp("CREATED", reminder.creationDate)
    writer.timestamp("LAST-MODIFIED", reminder.lastModifiedDate)
    for property in reminder.additionalProperties { writer.raw(property) }
    for alarm in reminder.alarms { writer.alarm(alarm, description: reminder.title) }
    writer.end("VTODO")
  }
}
