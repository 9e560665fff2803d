internal import LMDB

extension EventStore {
  /// The calendar of the account `accountID` mirroring its server's collection at `url`, made
  /// now when there is none, its title and colour brought to the server's: written by the account
  /// (`source:ID`). A new one is read-only, holds `types`, and has a ``EventCalendar/remote`` not
  /// yet synced. The person's only.
  package func mirrorCollection(
    at url: String, title: String, color: String?, types: EntityTypes, ofAccount accountID: ObjectID
  ) throws(StoreError) -> EventCalendar {
    try requireOwner("sync accounts")
    return try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(.source, accountID, in: txn), stored.isLive else {
        throw StoreError.calendar(.accountNotFound(accountID))
      }
      let account = try CalendarAccount(id: accountID, version: stored.version, stored.state)
      let principal = Principal.source(accountID.description)
      let existing = try txn.reading { txn in
        try Self.allCalendars(objects, in: txn).first { $0.source.id == accountID && $0.remote?.url == url }
      }
      if let calendar = existing {
        guard let changed = Self.mirror(calendar, title: title, color: color, source: account.source) else {
          return calendar
        }
        return try Self.appendSaved(changed, change: .modified, principal, &txn, &appender)
      }
      var calendar = EventCalendar(
        title: title.isEmpty ? url : title, source: account.source, allowedEntityTypes: types,
        allowsContentModifications: false)
      if let color = color.flatMap(Self.calendarColor) { calendar.color = color }
      calendar.remote = RemoteCollection(url: url)
      try Self.checkText(calendar.title, field: "the collection's name")
      return try Self.appendSaved(calendar, change: .created, principal, &txn, &appender)
    }
  }

  /// `calendar`, an account's, with the server's `title` and `color` (`calendar-color`, as the
  /// server gives it) and its account's `source`; `nil` when it has them already and nothing is
  /// to be written.
  package static func mirror(
    _ calendar: EventCalendar, title: String, color: String?, source: CalendarSource
  ) -> EventCalendar? {
    var changed = calendar
    (changed.title, changed.source) = (title, source)
    if let color = color.flatMap(calendarColor) { changed.color = color }
    return changed == calendar ? nil : changed
  }

  /// Removes the account's calendar `calendarID`, whose collection is gone from the server, with
  /// everything it holds: written by the account. The person's only.
  package func removeMirror(_ calendarID: ObjectID) throws(StoreError) {
    try requireOwner("sync accounts")
    try write(nil) { txn, appender, objects in
      let calendar = try liveCalendar(calendarID, objects: objects, in: txn)
      guard calendar.remote != nil else { throw StoreError.calendar(.notAnAccountCalendar(calendarID)) }
      var payload = Payload()
      payload.append(tag: 1, id: calendarID)
      try appender.append(
        RecordDraft(kind: .calendarRemoved, principal: .source(calendar.source.id.description), payload: payload),
        in: &txn)
    }
  }

  /// The `ETag` of each object the account's calendar `calendarID` holds, by its name in the
  /// collection: what a sync compares a listing with.
  package func remoteEntityTags(inCalendar calendarID: ObjectID) throws(StoreError) -> [String: String] {
    try requireOwner("sync accounts")
    return try read { txn, objects, _ in
      var tags: [String: String] = [:]
      for kind in [ObjectKind.event, .reminder] {
        for id in try objects.items(kind, inCalendar: calendarID, in: txn) {
          guard let stored = try objects.state(kind, id, in: txn), stored.isLive else { continue }
          let name = try stored.state.string(22) ?? stored.state.requiredString(1)
          tags[name] = try stored.state.string(26) ?? ""
        }
      }
      return tags
    }
  }

  /// The `ETag` of each of the objects `names` the account's calendar `calendarID` holds (a name it
  /// does not hold is left out), found by the index of names: what an incremental sync compares.
  package func remoteEntityTags(named names: [String], inCalendar calendarID: ObjectID) throws(StoreError)
    -> [String: String]
  {
    try requireOwner("sync accounts")
    return try read { txn, objects, _ in
      var tags: [String: String] = [:]
      for name in names {
        for kind in [ObjectKind.event, .reminder] {
          if let (_, stored) = try objects.items(kind, named: name, inCalendar: calendarID, in: txn).first {
            tags[name] = try stored.state.string(26) ?? ""
          }
        }
      }
      return tags
    }
  }

  /// What a server holds as a calendar object, checked as a calendar object of `calendarID` is
  /// checked, before a sync takes it; its error says why it cannot be taken.
  package static func checkRemote(_ object: CalendarObject, in calendarID: ObjectID) throws(StoreError)
    -> CheckedRemoteObject
  {
    let (events, reminders) = try checkedItems(of: object, in: calendarID)
    return CheckedRemoteObject(calendarID: calendarID, events: events, reminders: reminders)
  }

  /// Applies `changes` from the collection the account's calendar `calendarID` mirrors, in one
  /// transaction, every record made by the account (`source:ID`): an object whose stored items
  /// carry its `ETag` already is left as it is (a sync resumed after a crash writes nothing twice);
  /// another replaces what the calendar holds under its name (items keep their identifiers, an
  /// event by its `RECURRENCE-ID`), and a removal removes it. With `completing`, the calendar's
  /// ``EventCalendar/remote`` is saved as it in the same transaction — the sync token and the
  /// last changes it brought are committed together, so a sync killed anywhere resumes from the
  /// last token with nothing lost.
  ///
  /// Each object was checked for this calendar (``checkRemote(_:in:)``); one whose `UID` the
  /// calendar holds under another name is not taken and is returned as quarantined. The person's
  /// only.
  @discardableResult
  package func applyRemote(
    _ changes: [RemoteChange], to calendarID: ObjectID, completing: RemoteCollection? = nil
  ) throws(StoreError) -> RemoteApply {
    try requireOwner("sync accounts")
    for case .stored(let name, _, let object) in changes where object.calendarID != calendarID {
      throw .calendar(
        .invalidCalendarObject("\(name) was checked for calendar \(object.calendarID), not \(calendarID)"))
    }
    return try write(nil) { txn, appender, objects in
      let calendar = try liveCalendar(calendarID, objects: objects, in: txn)
      guard var remote = calendar.remote else { throw StoreError.calendar(.notAnAccountCalendar(calendarID)) }
      let source = Principal.source(calendar.source.id.description)
      var result = RemoteApply()
      for change in changes {
        switch change {
        case .removed(let name):
          let existing = try txn.reading { txn in
            try objects.items(.event, named: name, inCalendar: calendarID, in: txn).map { ($0.0, true) }
              + objects.items(.reminder, named: name, inCalendar: calendarID, in: txn).map { ($0.0, false) }
          }
          for (id, isEvent) in existing {
            try Self.appendRemoved(id, isEvent: isEvent, calendar: calendarID, source, &txn, &appender)
            result.lastPosition = appender.head.position
          }
          if !existing.isEmpty { result.removed += 1 }
        case .stored(let name, let tag, let object):
          try storeRemote(
            name: name, tag: tag, events: object.events, reminders: object.reminders, calendarID, source, objects,
            &txn, &appender, &result)
        }
      }
      if var completing {
        completing.url = remote.url
        completing.quarantined = Array(
          (completing.quarantined + result.quarantined).prefix(RemoteCollection.maximumQuarantined))
        if completing != remote {
          remote = completing
          var saved = calendar
          saved.remote = remote
          result.lastPosition = try Self.appendSaved(saved, change: .modified, source, &txn, &appender).version
        }
      }
      return result
    }
  }

  /// Stores one object of a collection under `name` with `tag`, as ``applyRemote(_:to:completing:)``
  /// says.
  private func storeRemote(
    name: String, tag: String, events: [Event], reminders: [Reminder], _ calendarID: ObjectID,
    _ source: Principal, _ objects: ObjectProjection, _ txn: inout WriteTransaction, _ appender: inout LogAppender,
    _ result: inout RemoteApply
  ) throws {
    let isEvents = !events.isEmpty
    let (kind, otherKind): (ObjectKind, ObjectKind) = isEvents ? (.event, .reminder) : (.reminder, .event)
    let uid = events.first?.externalID ?? reminders.first?.externalID ?? name
    let (existing, other, elsewhere) = try txn.reading { txn in
      let existing = try objects.items(kind, named: name, inCalendar: calendarID, in: txn)
      let other = try objects.items(otherKind, named: name, inCalendar: calendarID, in: txn)
      let elsewhere = try objects.items(kind, externalID: uid, inCalendar: calendarID, in: txn).filter { item in
        !existing.contains { $0.0 == item.0 }
      }
      return (existing, other, elsewhere)
    }
    if !elsewhere.isEmpty {
      result.quarantined.append(
        .init(name: name, reason: "its UID \(uid) is also the UID of another object of the collection"))
      return
    }
    if other.isEmpty, !existing.isEmpty, try existing.allSatisfy({ try $0.1.state.string(26) == tag }) {
      result.unchanged += 1
      return
    }
    let earlierEvents = isEvents ? try existing.map { try Self.decodeEvent($0, $1) } : []
    let saved = try Self.replaceItems(
      events: events.map { event in
        var event = event
        event.remoteEntityTag = tag
        return event
      },
      reminders: reminders.map { reminder in
        var reminder = reminder
        reminder.remoteEntityTag = tag
        return reminder
      }, existing: existing, earlierEvents: earlierEvents, isEvents: isEvents, calendar: calendarID, source, &txn,
      &appender)
    result.lastPosition = (saved.events.map(\.version) + saved.reminders.map(\.version)).max()
    for (earlier, _) in other {
      try Self.appendRemoved(earlier, isEvent: !isEvents, calendar: calendarID, source, &txn, &appender)
      result.lastPosition = appender.head.position
    }
    if existing.isEmpty && other.isEmpty { result.created += 1 } else { result.updated += 1 }
  }

  /// `#RRGGBB` of a server's `calendar-color` (`#RRGGBB` or `#RRGGBBAA`), or `nil`.
  static func calendarColor(_ text: String) -> String? {
    let hex = text.dropFirst()
    guard text.first == "#", hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { return nil }
    return "#" + hex.prefix(6).uppercased()
  }
}
