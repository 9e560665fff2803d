internal import LMDB

extension EventStore {
  /// Sets and removes WebDAV dead properties (``Event/clientProperties``) of the calendar object a
  /// client finds at `name` in the calendar `id` — CalDAV's `PROPPATCH` of an object resource — in
  /// one transaction: each of its items saved again with the same properties (a `nil` value removes
  /// that name; removing one it does not have changes nothing), when `condition` holds for it.
  ///
  /// The session needs the access a change of the object needs (full access; a session given
  /// chosen calendars, one of them). Nothing is written when the properties stay as they are.
  /// Throws ``CalendarError/objectConditionFailed(_:)`` when there is no object at `name` (or
  /// `condition` fails), and ``CalendarError/invalidText(field:reason:)`` when the result holds more
  /// than ``EventCalendar/maximumClientProperties`` or a name or value a calendar's would not.
  ///
  /// Returns the object as stored.
  @discardableResult
  public func updateClientProperties(
    _ changes: [String: String?], ofObjectNamed name: String, inCalendar id: ObjectID,
    condition: ObjectCondition = .none
  ) throws(StoreError) -> CalendarObject {
    let actor = self.actor
    return try write(nil) { txn, appender, objects in
      var existing = try txn.reading { try objects.items(.event, named: name, inCalendar: id, in: $0) }
      let isEvents = !existing.isEmpty
      if !isEvents {
        existing = try txn.reading { try objects.items(.reminder, named: name, inCalendar: id, in: $0) }
      }
      try checkAccess(.change(isEvents ? .calendars : .reminders, "set a calendar object's properties"), in: txn)
      if isEvents { try checkCalendarScope(id, "change an event of a calendar it was not given", in: txn) }
      guard !existing.isEmpty, condition.holds(for: existing.map(\.1.version).max()) else {
        throw StoreError.calendar(.objectConditionFailed(name))
      }
      let calendar = try liveCalendar(id, objects: objects, in: txn)
      guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(id)) }
      if isEvents {
        var events = try existing.map { try Self.decodeEvent($0, $1) }
        let properties = Self.applying(changes, to: events[0].clientProperties)
        try Self.checkClientProperties(properties)
        guard properties != events[0].clientProperties else {
          return CalendarObject(uid: events[0].externalID, events: events)
        }
        for index in events.indices {
          events[index].clientProperties = properties
          events[index] = try Self.appendSaved(
            events[index], change: .modified, occurrence: nil, actor, &txn, &appender)
        }
        return CalendarObject(uid: events[0].externalID, events: events)
      }
      var reminders = try existing.map { try Self.decodeStoredReminder($0, $1) }
      let properties = Self.applying(changes, to: reminders[0].clientProperties)
      try Self.checkClientProperties(properties)
      guard properties != reminders[0].clientProperties else {
        return CalendarObject(uid: reminders[0].externalID, reminders: reminders)
      }
      for index in reminders.indices {
        reminders[index].clientProperties = properties
        reminders[index] = try Self.appendSaved(reminders[index], change: .modified, actor, &txn, &appender)
      }
      return CalendarObject(uid: reminders[0].externalID, reminders: reminders)
    }
  }

  /// `properties` with `changes` made: a value set, `nil` removed.
  package static func applying(_ changes: [String: String?], to properties: [String: String]) -> [String: String] {
    var result = properties
    for (name, value) in changes { result[name] = value }
    return result
  }
}
