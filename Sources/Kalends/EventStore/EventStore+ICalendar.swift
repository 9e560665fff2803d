internal import LMDB

extension EventStore {
  /// Imports an iCalendar file (its bytes) into a calendar as one atomic batch: every item, or —
  /// when the file has an error or the store refuses an item — nothing, with the line and reason in
  /// ``StoreError/iCalendar(_:)``.
  ///
  /// An item whose `UID` is already in the calendar is replaced only when the file's `SEQUENCE` is
  /// higher (for a series, the highest of it and its overrides), so importing the same file again
  /// writes nothing.
  @discardableResult
  public func importICalendar(
    _ bytes: some Collection<UInt8>, into destination: ImportDestination
  ) throws(StoreError) -> ICalendarImport {
    let file: ICalendar
    do {
      file = try ICalendar(parsing: bytes)
    } catch {
      throw .iCalendar(error)
    }
    return try importICalendar(file, into: destination)
  }

  /// Imports parsed items, as the import of bytes does.
  @discardableResult
  public func importICalendar(_ file: ICalendar, into destination: ImportDestination) throws(StoreError)
    -> ICalendarImport
  {
    let placeholder = ObjectID.random()
    var events: [Event] = []
    for (index, event) in file.events.enumerated() {
      var checked = event
      checked.calendarID = placeholder
      do {
        events.append(try EventValidator.validated(checked, allowsOverlap: true))
      } catch {
        throw .iCalendar(ICalendarError(line: Self.line(file.eventLines, index), .refused(error.description)))
      }
    }
    for (index, reminder) in file.reminders.enumerated() {
      var checked = reminder
      checked.calendarID = placeholder
      do {
        try Self.check(checked)
      } catch {
        throw .iCalendar(ICalendarError(line: Self.line(file.reminderLines, index), .refused(error.description)))
      }
    }
    let actor = self.actor
    return try write(.change(.calendars, "import a calendar")) { txn, appender, objects in
      if !file.reminders.isEmpty { try checkAccess(.change(.reminders, "import reminders"), in: txn) }
      // The calendar to import into: an existing one, or one to create.
      var target = ImportTarget(destination)
      if case .source(let source, var new) = destination {
        new.importSource = source
        let earlier = try txn.reading { txn in
          try Self.allCalendars(objects, in: txn).first { $0.importSource == source }?.id
        }
        target = earlier.map(ImportTarget.existing) ?? .create(new)
      }
      let calendar: EventCalendar
      switch target {
      case .existing(let id):
        if !events.isEmpty { try checkCalendarScope(id, "import into a calendar it was not given", in: txn) }
        calendar = try liveCalendar(id, objects: objects, in: txn)
        if !events.isEmpty && !calendar.allowedEntityTypes.contains(.events) {
          throw StoreError.calendar(.calendarDoesNotAllowEvents(id))
        }
        if !file.reminders.isEmpty && !calendar.allowedEntityTypes.contains(.reminders) {
          throw StoreError.calendar(.calendarDoesNotAllowReminders(id))
        }
        guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(id)) }
      case .create(var new):
        new.allowedEntityTypes =
          file.reminders.isEmpty ? .events : (events.isEmpty ? .reminders : [.events, .reminders])
        guard try objects.state(.calendar, new.id, in: txn) == nil else {
          throw StoreError.invalidInput("the new calendar's id is already used")
        }
        calendar = try Self.appendSaved(new, change: .created, actor, &txn, &appender)
      }
      var result = ICalendarImport(calendarID: calendar.id, skipped: file.skipped)
      if case .create = target {
        result.lastPosition = calendar.version
        result.createdCalendar = true
      }
      for var event in events {
        event.calendarID = calendar.id
        let existing = try txn.reading {
          try objects.items(.event, externalID: event.externalID, inCalendar: calendar.id, in: $0)
        }
        .map { try Self.decodeEvent($0.0, $0.1) }
        .first {
          Self.orphanRecurrenceID(of: $0.additionalProperties)
            == Self.orphanRecurrenceID(of: event.additionalProperties)
        }
        let saved: Event
        if let existing {
          guard Self.revision(of: event) > Self.revision(of: existing) else {
            result.unchanged += 1
            continue
          }
          event.id = existing.id
          event.resourceName = existing.resourceName
          event.creationDate = event.creationDate ?? existing.creationDate
          saved = try Self.appendSaved(event, change: .modified, occurrence: nil, actor, &txn, &appender)
          result.updated += 1
        } else {
          event.creationDate = event.creationDate ?? appender.timestamp
          saved = try Self.appendSaved(event, change: .created, occurrence: nil, actor, &txn, &appender)
          result.created += 1
        }
        result.lastPosition = saved.version
      }
      for var reminder in file.reminders {
        reminder.calendarID = calendar.id
        let existing = try txn.reading {
          try objects.items(.reminder, externalID: reminder.externalID, inCalendar: calendar.id, in: $0)
        }
        .first
        let change: ItemChange
        if let (id, stored) = existing {
          guard reminder.sequence > Int(clamping: try stored.state.unsigned(19) ?? 0) else {
            result.unchanged += 1
            continue
          }
          reminder.id = id
          reminder.resourceName = try stored.state.string(22)
          reminder.creationDate =
            try reminder.creationDate ?? stored.state.signed(18).map(Timestamp.init(rawValue:))
          change = .modified
          result.updated += 1
        } else {
          reminder.creationDate = reminder.creationDate ?? appender.timestamp
          change = .created
          result.created += 1
        }
        result.lastPosition = try Self.appendSaved(reminder, change: change, actor, &txn, &appender).version
      }
      return result
    }
  }

  /// The highest `SEQUENCE` of a series and its detached occurrences.
  static func revision(of event: Event) -> Int {
    event.detachedOccurrences.values.map(\.sequence).reduce(event.sequence, max)
  }

  /// The `RECURRENCE-ID` line kept on an override imported without its series, which with the
  /// `UID` identifies it.
  static func orphanRecurrenceID(of properties: [String]) -> String? {
    properties.first { $0.uppercased().hasPrefix("RECURRENCE-ID") }
  }

  private static func line(_ lines: [Int], _ index: Int) -> Int { index < lines.count ? lines[index] : 0 }

  /// The events and reminders of `calendars` (all when empty) as an iCalendar file. With a window
  /// (`from`, `to`: UTC seconds), only the series with an occurrence overlapping it (whole, with
  /// every occurrence) and the reminders due in it; floating and all-day times are placed in
  /// `viewerZone`.
  public func exportICalendar(
    calendars: [ObjectID] = [], from: Int64? = nil, to: Int64? = nil, viewerZone: ZoneRules = .utc
  ) throws(StoreError) -> ICalendar {
    let chosen =
      calendars.isEmpty
      ? try self.calendars()
      : try calendars.map { id throws(StoreError) in
        guard let calendar = try calendar(withID: id) else { throw .calendar(.calendarNotFound(id)) }
        return calendar
      }
    var file = ICalendar(name: chosen.count == 1 ? chosen[0].title : nil)
    let eventCalendars = chosen.filter { $0.allowedEntityTypes.contains(.events) }.map(\.id)
    var inWindow: Set<ObjectID>?
    if let from, let to, !eventCalendars.isEmpty {
      let predicate = EventPredicate(start: from, end: to, calendars: eventCalendars, viewerZone: viewerZone)
      inWindow = Set(try instances(matching: predicate).map(\.id))
    }
    for calendar in eventCalendars {
      file.events += try events(inCalendar: calendar).filter { inWindow?.contains($0.id) ?? true }
    }
    let reminderCalendars = chosen.filter { $0.allowedEntityTypes.contains(.reminders) }.map(\.id)
    if !reminderCalendars.isEmpty {
      file.reminders = try reminders(inCalendars: reminderCalendars).filter { reminder in
        guard let from, let to else { return true }
        guard let due = reminder.dueDate else { return false }
        let zone = reminder.timeZone.flatMap { try? ZoneRules.named($0) } ?? viewerZone
        return (from..<to).contains(zone.resolve(due))
      }
    }
    return file
  }
}

/// The calendar an import writes into: one that exists, or one it creates.
private enum ImportTarget {
  case existing(ObjectID)
  case create(EventCalendar)

  /// The target of `destination`, a source's taken to be new until an earlier import is found.
  init(_ destination: ImportDestination) {
    switch destination {
    case .calendar(let id): self = .existing(id)
    case .newCalendar(let new), .source(_, let new): self = .create(new)
    }
  }
}
