internal import LMDB

extension EventStore {
  /// The event `id` — for a series, the series itself (which describes its first occurrence) — or
  /// `nil` when there is none or it was removed. An event of the birthdays calendar
  /// (``BirthdaysCalendar``) is found by its identifier too, when this session sees its contact.
  public func event(withID id: ObjectID) throws(StoreError) -> Event? {
    try readItems(.calendars, "read events", hidden: nil) { txn, objects, uses in
      guard let stored = try objects.state(.event, id, in: txn), stored.isLive else {
        return try birthdaySeries(id, objects, in: txn, noting: uses)
      }
      if let scope = try calendarScope(in: txn), !scope.contains(stored.calendarID) { return nil }
      uses.touch(stored.calendarID)
      return try Self.decodeEvent(id, stored)
    }
  }

  static func decodeEvent(_ id: ObjectID, _ stored: StoredObject) throws -> Event {
    try ModelCodec.decodeEvent(
      id: id, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state)
  }

  /// The occurrence of the series `id` whose original start is `date` — the detached one if it was
  /// changed on its own — or `nil` when the series or the occurrence does not exist.
  public func event(withID id: ObjectID, occurrence date: LocalDateTime) throws(StoreError) -> Event? {
    guard let series = try event(withID: id) else { return nil }
    return try SeriesEditor.occurrence(of: series, at: date)
  }

  /// Every event (each series once) in the calendar `calendarID`, by start then identifier.
  public func events(inCalendar calendarID: ObjectID) throws(StoreError) -> [Event] {
    try readItems(.calendars, "read events", hidden: []) { txn, objects, uses in
      if let scope = try calendarScope(in: txn), !scope.contains(calendarID) { return [] }
      uses.touch(calendarID)
      return try objects.items(.event, inCalendar: calendarID, in: txn).compactMap { id in
        guard let stored = try objects.state(.event, id, in: txn), stored.isLive else { return nil }
        return try Self.decodeEvent(id, stored)
      }
      .sorted { ($0.start ?? .min, $0.id) < ($1.start ?? .min, $1.id) }
    }
  }

  /// Saves an event: creates it, changes it, or for an occurrence of a series applies `span`.
  ///
  /// - A single event, or a new one: `span` does not matter.
  /// - An occurrence (or the series itself, which stands for its first occurrence) with
  ///   ``Span/thisEvent``: the occurrence is detached — it keeps its identity (the series'
  ///   ``Event/id`` and its ``Event/occurrenceDate``) with its own fields. Changing the recurrence
  ///   this way is refused with ``CalendarError/invalidSpan(_:)``.
  /// - With ``Span/futureEvents``: on the first occurrence, the whole series changes; on a later
  ///   one, the series ends before it and a new series (new identifiers) starts there.
  ///
  /// Returns the event as saved, with its new version. One log record, or for a split one atomic
  /// batch of two.
  @discardableResult
  public func save(_ event: Event, span: Span, overwrite: Bool = false) throws(StoreError) -> Event {
    try save([event], span: span, overwrite: overwrite)[0]
  }

  /// Saves several events in one transaction, each as ``save(_:span:overwrite:)`` would and in
  /// order (a later one sees the earlier ones): all of them, or — when one is refused — none.
  @discardableResult
  public func save(_ events: [Event], span: Span, overwrite: Bool = false) throws(StoreError) -> [Event] {
    var validated: [Event] = []
    validated.reserveCapacity(events.count)
    for event in events { validated.append(try EventValidator.validated(event, allowsOverlap: true)) }
    return try write(.add(.calendars, "save an event")) { txn, appender, objects in
      let writeOnly = try writeOnlyTarget(objects, in: txn)
      return try validated.map { event in
        try writeOnly.check(event.calendarID)
        try checkCalendarScope(event.calendarID, "save an event in a calendar it was not given", in: txn)
        if let stored = try objects.state(.event, event.id, in: txn), stored.isLive {
          try checkCalendarScope(stored.calendarID, "move an event out of a calendar it was not given", in: txn)
        }
        try Self.checkOverlap(event, objects, in: txn)
        return try saveValidated(event, span: span, overwrite: overwrite, &txn, &appender, objects)
      }
    }
  }

  /// EventKit's check of a save through the API: a series may not last longer than the interval
  /// between its occurrences — unless it is stored so already (imported from a file, where RFC 5545
  /// allows it) and the save keeps its rules and its duration.
  private static func checkOverlap(
    _ event: Event, _ objects: ObjectProjection, in txn: borrowing WriteTransaction
  ) throws {
    guard EventValidator.overlaps(event) else { return }
    if let stored = try objects.state(.event, event.id, in: txn), stored.isLive {
      let series = try decodeEvent(event.id, stored)
      if series.recurrenceRules == event.recurrenceRules
        && EventValidator.duration(series) == EventValidator.duration(event)
      {
        return
      }
    }
    throw StoreError.calendar(.durationGreaterThanRecurrence)
  }

  /// Saves one validated event inside a write transaction.
  private func saveValidated(
    _ event: Event, span: Span, overwrite: Bool, _ txn: inout WriteTransaction, _ appender: inout LogAppender,
    _ objects: ObjectProjection
  ) throws -> Event {
    let actor = self.actor
    let calendar = try liveCalendar(event.calendarID, objects: objects, in: txn)
    guard calendar.allowedEntityTypes.contains(.events) else {
      throw StoreError.calendar(.calendarDoesNotAllowEvents(calendar.id))
    }
    guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(calendar.id)) }
    guard let stored = try objects.state(.event, event.id, in: txn) else {
      guard event.occurrenceDate == nil else { throw StoreError.calendar(.itemNotFound(event.id)) }
      try checkAccess(.add(.calendars, "add an event"), in: txn)
      var created = event
      created.creationDate = appender.timestamp
      created.detachedOccurrences = [:]
      return try Self.appendSaved(created, change: .created, occurrence: nil, actor, &txn, &appender)
    }
    try checkAccess(.change(.calendars, "change an existing event"), in: txn)
    try Self.checkVersion(event.id, fetched: event.version, stored: stored, overwrite: overwrite)
    let series = try Self.decodeEvent(event.id, stored)
    if series.calendarID != calendar.id {
      let previous = try liveCalendar(series.calendarID, objects: objects, in: txn)
      guard previous.allowsContentModifications else {
        throw StoreError.calendar(.calendarReadOnly(previous.id))
      }
    }
    guard series.isRecurring else {
      return try Self.appendSaved(
        Self.replacing(series, with: event), change: .modified, occurrence: nil, actor, &txn, &appender,
        movedFrom: series.calendarID)
    }
    let occurrence = event.occurrenceDate ?? series.start!
    let isFirst = occurrence == series.start
    switch span {
    case .futureEvents where isFirst:
      var whole = Self.replacing(series, with: event)
      if event.exceptionDates == series.exceptionDates, let original = series.start {
        whole = try SeriesEditor.moving(whole, from: original)
      }
      return try Self.appendSaved(
        whole, change: .modified, occurrence: nil, actor, &txn, &appender, movedFrom: series.calendarID)
    case .futureEvents:
      return try Self.split(series, at: occurrence, continuingWith: event, actor, &txn, &appender)
    case .thisEvent:
      guard event.recurrenceRules == series.recurrenceRules, event.recurrenceDates == series.recurrenceDates else {
        throw StoreError.calendar(.invalidSpan("changing the recurrence of one occurrence is not possible"))
      }
      guard event.calendarID == series.calendarID else {
        throw StoreError.calendar(.invalidSpan("one occurrence cannot move to another calendar"))
      }
      guard try SeriesEditor.isOccurrence(occurrence, of: series) else {
        throw StoreError.calendar(.occurrenceNotFound(series.id, occurrence))
      }
      var detached = event
      detached.occurrenceDate = occurrence
      detached.isDetached = true
      var updated = series
      updated.detachedOccurrences[occurrence] = detached
      let saved = try Self.appendSaved(
        updated, change: .occurrenceDetached, occurrence: occurrence, actor, &txn, &appender)
      var result = detached
      result.version = saved.version
      result.lastModifiedDate = saved.lastModifiedDate
      return result
    }
  }

  /// Removes an event, or for an occurrence of a series applies `span`: ``Span/thisEvent`` adds an
  /// exception date; ``Span/futureEvents`` ends the series before the occurrence (on the first
  /// occurrence: removes the whole series).
  public func remove(_ event: Event, span: Span, overwrite: Bool = false) throws(StoreError) {
    let actor = self.actor
    try write(.change(.calendars, "remove an event")) { txn, appender, objects in
      guard let stored = try objects.state(.event, event.id, in: txn) else {
        throw StoreError.calendar(.itemNotFound(event.id))
      }
      try Self.checkVersion(event.id, fetched: event.version, stored: stored, overwrite: overwrite)
      let series = try Self.decodeEvent(event.id, stored)
      try checkCalendarScope(series.calendarID, "remove an event from a calendar it was not given", in: txn)
      let calendar = try liveCalendar(series.calendarID, objects: objects, in: txn)
      guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(calendar.id)) }
      let occurrence = event.occurrenceDate ?? series.start!
      let wholeSeries = !series.isRecurring || (span == .futureEvents && occurrence == series.start)
      if wholeSeries {
        var payload = Payload()
        payload.append(tag: 1, id: series.id)
        payload.append(tag: 2, id: series.calendarID!)
        try appender.append(RecordDraft(kind: .eventRemoved, principal: actor, payload: payload), in: &txn)
        return
      }
      guard try SeriesEditor.isOccurrence(occurrence, of: series) else {
        throw StoreError.calendar(.occurrenceNotFound(series.id, occurrence))
      }
      var updated = series
      let change: ItemChange
      if span == .thisEvent {
        updated.detachedOccurrences[occurrence] = nil
        if !updated.exceptionDates.contains(occurrence) { updated.exceptionDates.append(occurrence) }
        change = .occurrenceRemoved
      } else {
        updated = try SeriesEditor.ending(series, before: occurrence)
        change = .futureOccurrencesRemoved
      }
      try Self.appendSaved(updated, change: change, occurrence: occurrence, actor, &txn, &appender)
    }
  }

  // MARK: Building records

  /// `series` with the caller's fields from `event`, keeping what only the store sets.
  static func replacing(_ series: Event, with event: Event) -> Event {
    var updated = event
    updated.occurrenceDate = nil
    updated.isDetached = false
    updated.creationDate = series.creationDate
    updated.detachedOccurrences = series.detachedOccurrences
    return updated
  }

  /// Splits `series` at `occurrence`: it ends before it, and a new series with `event`'s fields
  /// continues from there, taking the later exceptions and detached occurrences along.
  static func split(
    _ series: Event, at occurrence: LocalDateTime, continuingWith event: Event, _ actor: Principal,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> Event {
    guard try SeriesEditor.isOccurrence(occurrence, of: series) else {
      throw StoreError.calendar(.occurrenceNotFound(series.id, occurrence))
    }
    let ended = try SeriesEditor.ending(series, before: occurrence)
    var continued = event
    continued.id = .random()
    continued.externalID = ObjectID.random().description
    continued.resourceName = nil
    continued.occurrenceDate = nil
    continued.isDetached = false
    continued.creationDate = appender.timestamp
    continued.recurrenceRules = try SeriesEditor.continuingRules(of: series, from: occurrence, as: event)
    continued.exceptionDates = series.exceptionDates.filter { $0 >= occurrence }
    continued.recurrenceDates = event.recurrenceDates.filter { $0 >= occurrence }
    continued.detachedOccurrences = series.detachedOccurrences.filter { $0.key > occurrence }
    continued = try SeriesEditor.moving(continued, from: occurrence)
    try appendSaved(ended, change: .seriesSplit, occurrence: occurrence, actor, &txn, &appender)
    return try appendSaved(
      continued, change: .created, occurrence: nil, actor, &txn, &appender, splitFrom: series.id)
  }

  /// Appends an `eventSaved` record with the full state of `event` and returns it as saved. With
  /// `movedFrom`, the calendar the event was in before the change: named in the record when it
  /// differs, so that a subscriber limited to some calendars hears a move out of them as a removal
  /// and a move into them as an addition, from the record alone.
  @discardableResult
  static func appendSaved(
    _ event: Event, change: ItemChange, occurrence: LocalDateTime?, _ actor: Principal,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender, splitFrom: ObjectID? = nil,
    movedFrom: ObjectID? = nil
  ) throws -> Event {
    var payload = Payload()
    payload.append(tag: 1, id: event.id)
    payload.append(tag: 2, id: event.calendarID!)
    payload.append(tag: 3, unsigned: change.rawValue)
    if let occurrence { payload.append(tag: 4, signed: occurrence.wallClockSeconds) }
    payload.append(tag: 5, message: ModelCodec.encode(event))
    if let splitFrom { payload.append(tag: 6, id: splitFrom) }
    if let movedFrom, movedFrom != event.calendarID { payload.append(tag: 7, id: movedFrom) }
    let header = try appender.append(RecordDraft(kind: .eventSaved, principal: actor, payload: payload), in: &txn)
    var saved = event
    saved.version = header.position
    saved.lastModifiedDate = header.timestamp
    return saved
  }
}
