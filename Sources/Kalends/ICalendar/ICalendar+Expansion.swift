extension ICalendar {
  /// The calendar as RFC 5545 text with every event and reminder expanded into its instances that
  /// overlap `[from, to)` (UTC seconds): CalDAV's `expand` (RFC 4791 §9.6.5).
  ///
  /// Each instance is a component of its own, with a `RECURRENCE-ID` (its original start) when it
  /// belongs to a series, and no `RRULE`, `RDATE`, `EXDATE` or `VTIMEZONE`: times in a zone are
  /// written in UTC; floating times and dates stay as they are, as they refer to no zone, and are
  /// placed in `floating` to decide what overlaps (RFC 4791 §9.6.5: the request's or the calendar's
  /// time zone). A detached occurrence counts where it was moved to, and is written as it was
  /// changed. An event overlaps as ``RecurrenceSet/occurrences(from:to:viewerZone:)`` says; a
  /// reminder as RFC 4791 §9.9 says of a `VTODO` (``Reminder/overlaps(from:to:floatingIn:)``).
  public func serialized(
    expandingFrom from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc,
    productID: String = "-//Kalends//Kalends//EN", stamp: Timestamp = .now()
  ) -> String {
    var writer = ICalendarWriter()
    beginCalendar(productID: productID, to: &writer)
    for event in events {
      for (instance, recurrenceID) in Self.instances(of: event, from: from, to: to, floatingIn: floating) {
        writer.begin("VEVENT")
        writer.text("UID", event.externalID)
        writer.timestamp("DTSTAMP", event.lastModifiedDate ?? stamp)
        if let (local, zone) = recurrenceID {
          writer.time("RECURRENCE-ID", [local], zone: zone, isDate: event.isAllDay)
        }
        writeOccurrenceFields(instance, to: &writer)
        writer.timestamp("CREATED", event.creationDate)
        writer.timestamp("LAST-MODIFIED", event.lastModifiedDate)
        writeExtras(instance, to: &writer)
        writer.end("VEVENT")
      }
    }
    for reminder in reminders {
      for (instance, recurrenceID) in Self.instances(of: reminder, from: from, to: to, floatingIn: floating) {
        write(instance, stamp: stamp, recurrenceID: recurrenceID, to: &writer)
      }
    }
    writer.end("VCALENDAR")
    return writer.text
  }

  /// At most how many instances ``serialized(expandingFrom:to:floatingIn:productID:stamp:)`` writes
  /// for the window `[from, to)`, counted without building them (a series' occurrences in the
  /// window, and every single event and detached occurrence whether or not it falls there), up to
  /// `limit`: a larger count is returned as `limit + 1`, so that a caller bounds an expansion before
  /// making it.
  public func expandedInstanceCount(from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc, limit: Int) -> Int {
    var count = 0
    for event in events {
      if event.isRecurring, let set = try? SeriesEditor.recurrenceSet(of: event) {
        for occurrence in set.occurrences(from: from, to: to, viewerZone: floating)
        where event.detachedOccurrences[occurrence.local] == nil {
          count += 1
          if count > limit { return count }
        }
        count += event.detachedOccurrences.count
      } else {
        count += 1
      }
      if count > limit { return limit + 1 }
    }
    for reminder in reminders {
      count += reminder.instances(from: from, to: to, limit: limit + 1 - count, floatingIn: floating).count
      if count > limit { return limit + 1 }
    }
    return count
  }

  /// A wall-clock time and the zone it is written in: `UTC`, or `nil` when floating or a date.
  typealias Written = (LocalDateTime, zone: String?)

  /// The instances of `event` that overlap `[from, to)`, by start, each with its `RECURRENCE-ID`
  /// when `event` is a series; floating times and dates placed in `floating`.
  static func instances(
    of event: Event, from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc
  ) -> [(Event, Written?)] {
    func overlaps(_ start: Int64, _ end: Int64) -> Bool { Event.overlaps(start, end, from: from, to: to) }
    /// `instance` with its times `start` and `end` (UTC seconds) written in UTC, when it has a zone.
    func written(_ instance: Event, start: Int64, end: Int64) -> Event {
      var written = instance
      written.recurrenceRules = []
      written.recurrenceDates = []
      written.exceptionDates = []
      written.detachedOccurrences = [:]
      if instance.timeZoneRules != nil {
        written.start = LocalDateTime(wallClockSeconds: start) ?? instance.start
        written.end = LocalDateTime(wallClockSeconds: end) ?? instance.end
        written.timeZone = "UTC"
      }
      return written
    }
    func placed(_ instance: Event) -> (Int64, Int64)? { instance.placed(floatingIn: floating) }
    guard event.isRecurring else {
      guard let (start, end) = placed(event), overlaps(start, end) else { return [] }
      return [(written(event, start: start, end: end), nil)]
    }
    guard let set = try? SeriesEditor.recurrenceSet(of: event) else { return [] }
    let seriesZone = event.timeZoneRules
    func recurrenceID(_ local: LocalDateTime) -> Written {
      guard let seriesZone else { return (local, nil) }
      return (LocalDateTime(wallClockSeconds: seriesZone.resolve(local)) ?? local, "UTC")
    }
    var found: [(start: Int64, instance: Event, recurrenceID: Written)] = []
    for occurrence in set.occurrences(from: from, to: to, viewerZone: floating)
    where event.detachedOccurrences[occurrence.local] == nil {
      guard let instance = try? SeriesEditor.occurrence(of: event, at: occurrence.local, checked: false) else {
        continue
      }
      found.append(
        (
          occurrence.start, written(instance, start: occurrence.start, end: occurrence.end),
          recurrenceID(occurrence.local)
        ))
    }
    for (local, detached) in event.detachedOccurrences {
      guard let (start, end) = placed(detached), overlaps(start, end) else { continue }
      found.append((start, written(detached, start: start, end: end), recurrenceID(local)))
    }
    return found.sorted { ($0.start, $0.recurrenceID.0) < ($1.start, $1.recurrenceID.0) }.map {
      ($0.instance, $0.recurrenceID)
    }
  }

  /// The instances of `reminder` that overlap `[from, to]` (``Reminder/overlaps(from:to:floatingIn:)``), by due
  /// date, each with its `RECURRENCE-ID` when it repeats; times in a zone written in UTC, floating
  /// ones placed in `floating`.
  static func instances(
    of reminder: Reminder, from: Int64, to: Int64, floatingIn floating: ZoneRules = .utc
  ) -> [(Reminder, Written?)] {
    let zone = reminder.dueZone
    func written(_ local: LocalDateTime?) -> LocalDateTime? {
      guard let local, let zone else { return local }
      return LocalDateTime(wallClockSeconds: zone.resolve(local)) ?? local
    }
    return reminder.instances(from: from, to: to, floatingIn: floating).map { instance in
      var expanded = reminder
      expanded.recurrenceRules = []
      expanded.startDate = written(instance.start)
      expanded.dueDate = written(instance.due)
      if zone != nil { expanded.timeZone = "UTC" }
      return (expanded, instance.original.flatMap(written).map { ($0, zone == nil ? nil : "UTC") })
    }
  }
}
