internal import LMDB

extension EventStore {
  /// The calendar objects of the calendar `id` (RFC 4791 §4.1): its events grouped by `UID` when
  /// it holds events, then its reminders when it holds reminders; what this session may see of
  /// each, as ``events(inCalendar:)`` and ``reminders(inCalendars:)`` give it. `nil` when the
  /// calendar does not exist or this session may not see it.
  package func calendarObjects(inCalendar id: ObjectID) throws(StoreError) -> [CalendarObject]? {
    guard let calendar = try calendar(withID: id) else { return nil }
    let kinds = try readableKinds(of: calendar)
    var objects: [CalendarObject] = []
    var index: [String: Int] = [:]
    if kinds.contains(.events) {
      for event in try events(inCalendar: id) {
        if let at = index[event.externalID] {
          objects[at].events.append(event)
        } else {
          index[event.externalID] = objects.count
          objects.append(CalendarObject(uid: event.externalID, events: [event]))
        }
      }
    }
    if kinds.contains(.reminders) {
      for reminder in try reminders(inCalendars: [id]) where index[reminder.externalID] == nil {
        index[reminder.externalID] = objects.count
        objects.append(CalendarObject(uid: reminder.externalID, reminders: [reminder]))
      }
    }
    return objects
  }

  /// The calendar object a client finds at `name` in the calendar `id` (`CalendarObject.name`:
  /// the name it was stored under, or else its `UID`), from the index of external identifiers and
  /// names (no scan of the calendar); `nil` when there is none, or this session may not see it.
  package func calendarObject(named name: String, inCalendar id: ObjectID) throws(StoreError) -> CalendarObject? {
    guard let calendar = try calendar(withID: id) else { return nil }
    let kinds = try readableKinds(of: calendar)
    var events: [Event] = []
    var reminders: [Reminder] = []
    if kinds.contains(.events) {
      events = try readItems(.calendars, "read events", hidden: []) { txn, objects, uses in
        if let scope = try calendarScope(in: txn), !scope.contains(id) { return [] }
        uses.touch(id)
        return try objects.items(.event, named: name, inCalendar: id, in: txn).map { try Self.decodeEvent($0, $1) }
      }
    }
    if events.isEmpty && kinds.contains(.reminders) {
      reminders = try readItems(.reminders, "read reminders", hidden: []) { txn, objects, uses in
        uses.touch(id)
        return try objects.items(.reminder, named: name, inCalendar: id, in: txn).map(Self.decodeStoredReminder)
      }
    }
    guard let uid = events.first?.externalID ?? reminders.first?.externalID else { return nil }
    return CalendarObject(uid: uid, name: name, events: events, reminders: reminders)
  }

  /// The calendar objects of the calendar `id` with an event occurring in the window `[start,
  /// end)` (UTC seconds; floating times and all-day events placed in `floating`, UTC unless given:
  /// CalDAV's `calendar-timezone`), in the order of their first instance:
  /// answered from the date-range index in one snapshot (the instances in the window, then their
  /// objects by `UID`), never by a scan of the calendar — CalDAV's time-range `calendar-query`.
  /// What this session may see, as `calendarObjects(inCalendar:)`; `nil` when the calendar does
  /// not exist or this session may not see it.
  package func calendarObjects(
    inCalendar id: ObjectID, overlapping start: Int64, _ end: Int64, floatingIn floating: ZoneRules = .utc
  ) throws(StoreError) -> [CalendarObject]? {
    guard let calendar = try calendar(withID: id) else { return nil }
    guard try readableKinds(of: calendar).contains(.events), start < end else { return [] }
    let range = try rangeProjection()
    return try readItems(.calendars, "query events", hidden: []) { txn, objects, uses in
      if let scope = try calendarScope(in: txn), !scope.contains(id) { return [] }
      uses.touch(id)
      let query = RangeQuery(range: range, from: start, to: end, zone: floating)
      var seen: Set<ObjectID> = []
      var known: Set<String> = []
      var found: [CalendarObject] = []
      for instance in try query.instances(in: [id], txn) where seen.insert(instance.id).inserted {
        guard let stored = try objects.state(.event, instance.id, in: txn), stored.isLive,
          let uid = try stored.state.string(1), known.insert(uid).inserted
        else { continue }
        let events = try objects.items(
          .event, externalID: uid, inCalendar: id, in: txn, known: (instance.id, stored)
        ).map {
          try Self.decodeEvent($0, $1)
        }
        if !events.isEmpty { found.append(CalendarObject(uid: uid, events: events)) }
      }
      return found
    }
  }

  /// Stores `object` in the calendar `id` under its `CalendarObject.name`, replacing whatever is
  /// stored under that name there — as a CalDAV `PUT` does, whatever the items' `SEQUENCE` — in one
  /// transaction: every item of it, or none. Items keep their identifiers across replacements (an
  /// event by its `RECURRENCE-ID` when it is an override stored without its series); stored items
  /// of the name the object no longer holds are removed. A name other than the `UID` is kept in
  /// each item (``Event/resourceName``); a `UID` the calendar already holds under another name is
  /// refused (``CalendarError/uidInUse(uid:name:)``).
  ///
  /// `condition` is checked against the stored object in the same transaction, after the access
  /// checks (``CalendarError/objectConditionFailed(_:)``). The object must hold one `UID` and one
  /// kind of item (``CalendarError/invalidCalendarObject(_:)``); each item is checked as a save
  /// checks it. A session with write-only access may add an event only to the calendar for new
  /// events, and replace nothing.
  ///
  /// Returns the object as stored, and whether it was new.
  @discardableResult
  package func putCalendarObject(
    _ object: CalendarObject, inCalendar id: ObjectID, condition: ObjectCondition = .none
  ) throws(StoreError) -> (object: CalendarObject, created: Bool) {
    let (events, reminders) = try Self.checkedItems(of: object, in: id)
    let (uid, name) = (object.uid, object.name)
    let isEvents = !events.isEmpty
    let service: Service = isEvents ? .calendars : .reminders
    let actor = self.actor
    return try write(.add(service, "store a calendar object")) { txn, appender, objects in
      var (uid, name, events) = (uid, name, events)
      if isEvents {
        let target = try writeOnlyTarget(objects, in: txn)
        try target.check(id)
        try checkCalendarScope(id, "store an event in a calendar it was not given", in: txn)
        // A write-only app sees nothing of the calendar, so what it stores never meets what is
        // there: at a name or a UID the calendar holds already it is answered as at free ones —
        // its object stored under a name (and a UID) of its own — and learns nothing of them.
        if target.client != nil {
          let (nameHeld, uidHeld) = try txn.reading { txn in
            (
              try !objects.items(.event, named: name, inCalendar: id, in: txn).isEmpty
                || !objects.items(.reminder, named: name, inCalendar: id, in: txn).isEmpty,
              try !objects.items(.event, externalID: uid, inCalendar: id, in: txn).isEmpty
                || !objects.items(.reminder, externalID: uid, inCalendar: id, in: txn).isEmpty
            )
          }
          if nameHeld || uidHeld {
            let suffix = "-" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
            if nameHeld { name += suffix }
            if uidHeld { uid += suffix }
            events = events.map { event in
              var event = event
              event.externalID = uid
              event.resourceName = name == uid ? nil : name
              return event
            }
          }
        }
      }
      let calendar = try liveCalendar(id, objects: objects, in: txn)
      guard calendar.allowedEntityTypes.contains(isEvents ? .events : .reminders) else {
        throw StoreError.calendar(isEvents ? .calendarDoesNotAllowEvents(id) : .calendarDoesNotAllowReminders(id))
      }
      guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(id)) }
      let (kind, otherKind): (ObjectKind, ObjectKind) = isEvents ? (.event, .reminder) : (.reminder, .event)
      let other = try txn.reading {
        try objects.items(otherKind, named: name, inCalendar: id, in: $0)
          + objects.items(otherKind, externalID: uid, inCalendar: id, in: $0)
      }
      guard other.isEmpty else {
        throw StoreError.calendar(
          .invalidCalendarObject("\(name) or UID \(uid) is already a \(isEvents ? "reminder" : "event")'s"))
      }
      let existing = try txn.reading { try objects.items(kind, named: name, inCalendar: id, in: $0) }
      guard condition.holds(for: existing.map(\.1.version).max()) else {
        throw StoreError.calendar(.objectConditionFailed(name))
      }
      let elsewhere = try txn.reading {
        try objects.items(kind, externalID: uid, inCalendar: id, in: $0).filter { item in
          !existing.contains { $0.0 == item.0 }
        }
      }
      if let (_, stored) = elsewhere.first {
        throw StoreError.calendar(.uidInUse(uid: uid, name: try stored.state.string(22) ?? uid))
      }
      if !existing.isEmpty { try checkAccess(.change(service, "replace an existing item"), in: txn) }
      var stored = CalendarObject(uid: uid, name: name)
      // Each stored event decoded once, to pair it with the new one of the same RECURRENCE-ID.
      let earlierEvents = isEvents ? try existing.map { try Self.decodeEvent($0, $1) } : []
      // The resource's dead properties outlive a new body (RFC 4918 §9.7.1: a PUT replaces the
      // content, not the properties).
      let properties =
        isEvents
        ? earlierEvents.first?.clientProperties
        : try existing.first.map { try Self.decodeStoredReminder($0, $1).clientProperties }
      let saved = try Self.replaceItems(
        events: events.map { event in
          var event = event
          if let properties { event.clientProperties = properties }
          return event
        },
        reminders: reminders.map { reminder in
          var reminder = reminder
          if let properties { reminder.clientProperties = properties }
          return reminder
        }, existing: existing, earlierEvents: earlierEvents, isEvents: isEvents, calendar: id, actor, &txn, &appender)
      (stored.events, stored.reminders) = saved
      return (stored, existing.isEmpty)
    }
  }

  /// Removes the calendar object a client finds at `name` in the calendar `id` (as
  /// `calendarObject(named:inCalendar:)` finds it) — every item stored under it there —
  /// in one transaction, when `condition` holds for it; a missing object fails the condition
  /// `ObjectCondition.present(matching:)` and is otherwise ``CalendarError/objectConditionFailed(_:)``
  /// too: there was nothing to remove.
  package func removeCalendarObject(
    named name: String, inCalendar id: ObjectID, condition: ObjectCondition = .none
  ) throws(StoreError) {
    let actor = self.actor
    try write(nil) { txn, appender, objects in
      let (existing, isEvents) = try changeableItems(
        named: name, inCalendar: id, condition: condition, objects, in: txn,
        operation: "remove an item", outsideScope: "remove an event from a calendar it was not given")
      for (earlier, _) in existing {
        try Self.appendRemoved(earlier, isEvent: isEvents, calendar: id, actor, &txn, &appender)
      }
    }
  }

  /// The kinds of item of `calendar` this session reads. A calendar of one kind: that kind (its
  /// service's refusal, or question, is the answer). A calendar of both: those whose service the
  /// session holds — events with full or write-only access (which reads none of them), reminders
  /// with full access — so that a calendars-only program sees the events of a calendar that also
  /// holds tasks, and a reminders-only one its tasks; with neither, both (refused, or asked, as a
  /// calendar of one kind is).
  package func readableKinds(of calendar: EventCalendar) throws(StoreError) -> EntityTypes {
    let types = calendar.allowedEntityTypes
    guard types.contains(.events), types.contains(.reminders), sessionClient != nil else { return types }
    var held: EntityTypes = []
    if [.fullAccess, .writeOnly].contains(try authorizationStatus(for: .calendars)) { held.insert(.events) }
    if try authorizationStatus(for: .reminders) == .fullAccess { held.insert(.reminders) }
    return held.isEmpty ? types : held
  }

  /// The stored items of the object a client finds at `name` in the calendar `id` (its events, else
  /// its reminder), and whether they are events, once this session may change them: access for
  /// `operation` checked first (so a refused session learns nothing of the object), then the
  /// calendar's scope (`outsideScope`), then `condition` (``CalendarError/objectConditionFailed(_:)``,
  /// also when there is no object) and that the calendar allows changes.
  func changeableItems(
    named name: String, inCalendar id: ObjectID, condition: ObjectCondition, _ objects: ObjectProjection,
    in txn: borrowing WriteTransaction, operation: String, outsideScope: String
  ) throws -> (items: [(ObjectID, StoredObject)], isEvents: Bool) {
    var existing = try txn.reading { try objects.items(.event, named: name, inCalendar: id, in: $0) }
    let isEvents = !existing.isEmpty
    if !isEvents {
      existing = try txn.reading { try objects.items(.reminder, named: name, inCalendar: id, in: $0) }
    }
    try checkAccess(.change(isEvents ? .calendars : .reminders, operation), in: txn)
    if isEvents { try checkCalendarScope(id, outsideScope, in: txn) }
    guard !existing.isEmpty, condition.holds(for: existing.map(\.1.version).max()) else {
      throw StoreError.calendar(.objectConditionFailed(name))
    }
    let calendar = try liveCalendar(id, objects: objects, in: txn)
    guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(id)) }
    return (existing, isEvents)
  }

  /// The items of `object`, placed in the calendar `id` and checked as a save checks them.
  static func checkedItems(
    of object: CalendarObject, in id: ObjectID
  ) throws(StoreError) -> ([Event], [Reminder]) {
    guard !object.events.isEmpty || !object.reminders.isEmpty else {
      throw .calendar(.invalidCalendarObject("the resource holds no event and no reminder"))
    }
    guard object.events.isEmpty || object.reminders.isEmpty else {
      throw .calendar(.invalidCalendarObject("the resource holds both events and reminders"))
    }
    guard object.reminders.count <= 1 else {
      throw .calendar(.invalidCalendarObject("the resource holds \(object.reminders.count) reminders"))
    }
    let uids = Set(object.events.map(\.externalID) + object.reminders.map(\.externalID))
    guard uids == [object.uid] else {
      throw .calendar(
        .invalidCalendarObject("the resource's items have the UIDs \(uids.sorted()), not only \(object.uid)"))
    }
    guard !object.name.isEmpty else { throw .calendar(.invalidCalendarObject("the resource has no name")) }
    try checkText(object.name, field: "the resource name")
    let name = object.name == object.uid ? nil : object.name
    var events: [Event] = []
    for var event in object.events {
      event.calendarID = id
      event.resourceName = name
      events.append(try EventValidator.validated(event, allowsOverlap: true))
    }
    var reminders: [Reminder] = []
    for var reminder in object.reminders {
      reminder.calendarID = id
      reminder.resourceName = name
      try check(reminder)
      reminders.append(reminder)
    }
    return (events, reminders)
  }

  /// Saves the items of an object that replaces `existing`, the items stored under its name: each
  /// event keeps the identifier (and creation date) of the stored event of its `RECURRENCE-ID`
  /// (`earlierEvents`, decoded from `existing`), a reminder that of the stored reminder; stored
  /// items left unpaired are removed. Every record by `actor`. Returns the items as saved.
  static func replaceItems(
    events: [Event], reminders: [Reminder], existing: [(ObjectID, StoredObject)], earlierEvents: [Event],
    isEvents: Bool, calendar: ObjectID, _ actor: Principal, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> (events: [Event], reminders: [Reminder]) {
    var kept: Set<ObjectID> = []
    var saved: (events: [Event], reminders: [Reminder]) = ([], [])
    for var event in events {
      let recurrenceID = orphanRecurrenceID(of: event.additionalProperties)
      if let earlier = earlierEvents.first(where: {
        !kept.contains($0.id) && orphanRecurrenceID(of: $0.additionalProperties) == recurrenceID
      }) {
        kept.insert(earlier.id)
        event.id = earlier.id
        event.creationDate = event.creationDate ?? earlier.creationDate
        saved.events.append(try appendSaved(event, change: .modified, occurrence: nil, actor, &txn, &appender))
      } else {
        event.creationDate = event.creationDate ?? appender.timestamp
        saved.events.append(try appendSaved(event, change: .created, occurrence: nil, actor, &txn, &appender))
      }
    }
    for var reminder in reminders {
      if let (earlier, _) = existing.first {
        kept.insert(earlier)
        reminder.id = earlier
        saved.reminders.append(try appendSaved(reminder, change: .modified, actor, &txn, &appender))
      } else {
        reminder.creationDate = reminder.creationDate ?? appender.timestamp
        saved.reminders.append(try appendSaved(reminder, change: .created, actor, &txn, &appender))
      }
    }
    for (earlier, _) in existing where !kept.contains(earlier) {
      try appendRemoved(earlier, isEvent: isEvents, calendar: calendar, actor, &txn, &appender)
    }
    return saved
  }

  /// Appends the removal of the event or reminder `id` of the calendar `calendar`.
  static func appendRemoved(
    _ id: ObjectID, isEvent: Bool, calendar: ObjectID, _ actor: Principal, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws {
    var payload = Payload()
    payload.append(tag: 1, id: id)
    payload.append(tag: 2, id: calendar)
    try appender.append(
      RecordDraft(kind: isEvent ? .eventRemoved : .reminderRemoved, principal: actor, payload: payload), in: &txn)
  }
}
