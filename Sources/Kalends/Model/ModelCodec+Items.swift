extension ModelCodec {
  // MARK: Events

  static func encode(_ event: Event) -> Payload {
    var state = Payload()
    state.append(tag: 1, string: event.externalID)
    appendOccurrenceFields(of: event, to: &state)
    for rule in event.recurrenceRules { state.append(tag: 13, string: rule.description) }
    for date in event.exceptionDates.sorted() { state.append(tag: 14, signed: date.wallClockSeconds) }
    for date in event.recurrenceDates.sorted() { state.append(tag: 15, signed: date.wallClockSeconds) }
    for (date, detached) in event.detachedOccurrences.sorted(by: { $0.key < $1.key }) {
      var nested = Payload()
      nested.append(tag: 17, signed: date.wallClockSeconds)
      appendOccurrenceFields(of: detached, to: &nested)
      state.append(tag: 16, message: nested)
    }
    if let created = event.creationDate { state.append(tag: 18, signed: created.rawValue) }
    state.append(tag: 22, optional: event.resourceName)
    if event.endProperty != .dtend { state.append(tag: 23, unsigned: UInt64(event.endProperty.rawValue)) }
    appendClientProperties(event.clientProperties, tag: 24, to: &state)
    state.append(tag: 26, optional: event.remoteEntityTag)
    return state
  }

  private static func appendOccurrenceFields(of event: Event, to state: inout Payload) {
    state.append(tag: 2, string: event.title)
    if let start = event.start { state.append(tag: 3, signed: start.wallClockSeconds) }
    if let end = event.end { state.append(tag: 4, signed: end.wallClockSeconds) }
    if event.isAllDay { state.append(tag: 5, bool: true) }
    state.append(tag: 6, optional: event.timeZone)
    state.append(tag: 7, optional: event.location)
    state.append(tag: 8, optional: event.notes)
    state.append(tag: 9, optional: event.url)
    state.append(tag: 10, unsigned: UInt64(event.availability.rawValue))
    state.append(tag: 11, unsigned: UInt64(event.status.rawValue))
    appendAlarms(event.alarms, offsetTag: 12, to: &state)
    if event.sequence != 0 { state.append(tag: 19, unsigned: UInt64(clamping: event.sequence)) }
    for property in event.additionalProperties { state.append(tag: 20, string: property) }
    for category in event.categories { state.append(tag: 21, string: category) }
  }

  static func decodeEvent(
    id: ObjectID, calendarID: ObjectID, version: LogPosition, modified: Timestamp?, _ state: PayloadReader
  ) throws(StoreError) -> Event {
    var event = try decodeOccurrenceFields(state, id: id)
    event.id = id
    event.calendarID = calendarID
    event.externalID = try state.requiredString(1)
    event.version = version
    event.lastModifiedDate = modified
    event.creationDate = try state.signed(18).map(Timestamp.init(rawValue:))
    event.resourceName = try state.string(22)
    event.endProperty = Event.EndProperty(rawValue: UInt8(truncatingIfNeeded: try state.unsigned(23) ?? 0)) ?? .dtend
    event.clientProperties = try clientProperties(tag: 24, of: state)
    event.remoteEntityTag = try state.string(26)
    do {
      event.recurrenceRules = try state.strings(13).map { try RecurrenceRule(parsing: $0) }
    } catch {
      throw .malformedPayload("a stored recurrence rule does not parse: \(error)")
    }
    event.exceptionDates = try state.signedList(14).map(wallClock)
    event.recurrenceDates = try state.signedList(15).map(wallClock)
    for nested in try state.messages(16) {
      guard let date = try nested.signed(17) else { throw .malformedPayload("a detached occurrence has no date") }
      var detached = try decodeOccurrenceFields(nested, id: id)
      detached.id = id
      detached.calendarID = calendarID
      detached.externalID = event.externalID
      let occurrence = try wallClock(date)
      detached.occurrenceDate = occurrence
      detached.isDetached = true
      detached.recurrenceRules = event.recurrenceRules
      detached.recurrenceDates = event.recurrenceDates
      detached.exceptionDates = event.exceptionDates
      detached.creationDate = event.creationDate
      detached.version = version
      event.detachedOccurrences[occurrence] = detached
    }
    return event
  }

  private static func decodeOccurrenceFields(_ state: PayloadReader, id: ObjectID) throws(StoreError) -> Event {
    var event = Event(
      id: id, externalID: "", calendarID: nil, title: try state.string(2) ?? "",
      start: try wallClock(state.signed(3)),
      end: try wallClock(state.signed(4)), timeZone: try state.string(6),
      isAllDay: try state.bool(5) ?? false)
    event.location = try state.string(7)
    event.notes = try state.string(8)
    event.url = try state.string(9)
    event.availability = Event.Availability(rawValue: UInt8(truncatingIfNeeded: try state.unsigned(10) ?? 1)) ?? .busy
    event.status = Event.Status(rawValue: UInt8(truncatingIfNeeded: try state.unsigned(11) ?? 0)) ?? .none
    event.alarms = try alarms(offsetTag: 12, of: state)
    event.sequence = Int(clamping: try state.unsigned(19) ?? 0)
    event.additionalProperties = try state.strings(20)
    event.categories = try state.strings(21)
    return event
  }

  static func wallClock(_ seconds: Int64) throws(StoreError) -> LocalDateTime {
    guard let value = LocalDateTime(wallClockSeconds: seconds) else {
      throw .malformedPayload("wall-clock time \(seconds) is outside years 1…9999")
    }
    return value
  }

  static func wallClock(_ seconds: Int64?) throws(StoreError) -> LocalDateTime? {
    guard let seconds else { return nil }
    return try wallClock(seconds)
  }

  // MARK: Reminders

  static func encode(_ reminder: Reminder) -> Payload {
    var state = Payload()
    state.append(tag: 1, string: reminder.externalID)
    state.append(tag: 2, string: reminder.title)
    state.append(tag: 3, optional: reminder.notes)
    if let due = reminder.dueDate { state.append(tag: 4, signed: due.wallClockSeconds) }
    if let start = reminder.startDate { state.append(tag: 11, signed: start.wallClockSeconds) }
    if reminder.isDueDateOnly { state.append(tag: 5, bool: true) }
    state.append(tag: 6, optional: reminder.timeZone)
    state.append(tag: 7, unsigned: UInt64(reminder.priority))
    if let completed = reminder.completionDate { state.append(tag: 8, signed: completed.rawValue) }
    for rule in reminder.recurrenceRules { state.append(tag: 9, string: rule.description) }
    appendAlarms(reminder.alarms, offsetTag: 10, to: &state)
    if reminder.sequence != 0 { state.append(tag: 19, unsigned: UInt64(clamping: reminder.sequence)) }
    for property in reminder.additionalProperties { state.append(tag: 20, string: property) }
    if let created = reminder.creationDate { state.append(tag: 18, signed: created.rawValue) }
    state.append(tag: 22, optional: reminder.resourceName)
    appendClientProperties(reminder.clientProperties, tag: 24, to: &state)
    state.append(tag: 26, optional: reminder.remoteEntityTag)
    return state
  }

  static func decodeReminder(
    id: ObjectID, calendarID: ObjectID, version: LogPosition, modified: Timestamp?, _ state: PayloadReader
  ) throws(StoreError) -> Reminder {
    var reminder = Reminder(calendarID: calendarID, title: try state.string(2) ?? "")
    reminder.id = id
    reminder.externalID = try state.requiredString(1)
    reminder.notes = try state.string(3)
    reminder.dueDate = try wallClock(state.signed(4))
    reminder.startDate = try wallClock(state.signed(11))
    reminder.isDueDateOnly = try state.bool(5) ?? false
    reminder.timeZone = try state.string(6)
    reminder.priority = Int(clamping: try state.unsigned(7) ?? 0)
    reminder.completionDate = try state.signed(8).map(Timestamp.init(rawValue:))
    reminder.isCompleted = reminder.completionDate != nil
    do {
      reminder.recurrenceRules = try state.strings(9).map { try RecurrenceRule(parsing: $0) }
    } catch {
      throw .malformedPayload("a stored recurrence rule does not parse: \(error)")
    }
    reminder.alarms = try alarms(offsetTag: 10, of: state)
    reminder.sequence = Int(clamping: try state.unsigned(19) ?? 0)
    reminder.additionalProperties = try state.strings(20)
    reminder.creationDate = try state.signed(18).map(Timestamp.init(rawValue:))
    reminder.resourceName = try state.string(22)
    reminder.clientProperties = try clientProperties(tag: 24, of: state)
    reminder.remoteEntityTag = try state.string(26)
    reminder.version = version
    reminder.lastModifiedDate = modified
    return reminder
  }

  // MARK: Alarms

  /// Appends `alarms`: each one's offset at `offsetTag` (repeated, in order), and for those that
  /// keep properties of their `VALARM`, a message at tag 25: 1 `index` (of the alarm among the
  /// offsets), 2 `property` (repeated). An alarm without them costs what it always did.
  static func appendAlarms(_ alarms: [Alarm], offsetTag: UInt8, to state: inout Payload) {
    for alarm in alarms { state.append(tag: offsetTag, signed: alarm.relativeOffset) }
    for (index, alarm) in alarms.enumerated() where !alarm.additionalProperties.isEmpty {
      var detail = Payload()
      detail.append(tag: 1, unsigned: UInt64(index))
      for property in alarm.additionalProperties { detail.append(tag: 2, string: property) }
      state.append(tag: 25, message: detail)
    }
  }

  /// The alarms ``appendAlarms(_:offsetTag:to:)`` stored.
  static func alarms(offsetTag: UInt8, of state: PayloadReader) throws(StoreError) -> [Alarm] {
    var alarms = try state.signedList(offsetTag).map(Alarm.init(relativeOffset:))
    for detail in try state.messages(25) {
      guard let index = try detail.unsigned(1), index < UInt64(alarms.count) else {
        throw .malformedPayload("an alarm's properties name no alarm")
      }
      alarms[Int(index)].additionalProperties = try detail.strings(2)
    }
    return alarms
  }
}
