internal import LMDB

extension EventStore {
  /// The calendar of the account `accountID` mirroring its server's collection at `url`, made
  /// now when there is none, its title and colour brought to the server's: written by the account
  /// (`source:ID`), and it takes changes when the server lets the user change the collection
  /// (`writable`). A new one holds `types` and has a ``EventCalendar/remote`` not yet synced. The
  /// person's only.
  package func mirrorCollection(
    at url: String, title: String, color: String?, types: EntityTypes, writable: Bool, ofAccount accountID: ObjectID
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
        guard
          let changed = Self.mirror(
            calendar, title: title, color: color, writable: writable, source: account.source)
        else {
          return calendar
        }
        return try Self.appendSaved(changed, change: .modified, principal, &txn, &appender)
      }
      var calendar = EventCalendar(
        title: title.isEmpty ? url : title, source: account.source, allowedEntityTypes: types,
        allowsContentModifications: writable)
      if let color = color.flatMap(Self.calendarColor) { calendar.color = color }
      calendar.remote = RemoteCollection(url: url)
      try Self.checkText(calendar.title, field: "the collection's name")
      return try Self.appendSaved(calendar, change: .created, principal, &txn, &appender)
    }
  }

  /// `calendar`, an account's, with the server's `title` and `color` (`calendar-color`, as the
  /// server gives it), whether the server lets the user change it (`writable`), and its account's
  /// `source`; `nil` when it has them already and nothing is to be written.
  package static func mirror(
    _ calendar: EventCalendar, title: String, color: String?, writable: Bool, source: CalendarSource
  ) -> EventCalendar? {
    var changed = calendar
    (changed.title, changed.source, changed.allowsContentModifications) = (title, source, writable)
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

  /// The server's `ETag` of each object the account's calendar `calendarID` holds as the server
  /// does, by its name in the collection: what a sync compares a listing with. Objects made here and
  /// not yet sent are left out: the server does not hold them, and a listing without them does not
  /// remove them.
  package func remoteEntityTags(inCalendar calendarID: ObjectID) throws(StoreError) -> [String: String] {
    try requireOwner("sync accounts")
    let outbox = try store.projection(OutboxProjection.self)
    return try read(records: false) { txn, _, _ in
      try outbox.entityTags(inCalendar: calendarID, in: txn).filter { !$0.value.isEmpty }
    }
  }

  /// The server's `ETag` of each of the objects `names` the account's calendar `calendarID` holds
  /// (a name it does not hold, or holds only as made here, is left out), found by the index of
  /// names: what an incremental sync compares.
  package func remoteEntityTags(named names: [String], inCalendar calendarID: ObjectID) throws(StoreError)
    -> [String: String]
  {
    try requireOwner("sync accounts")
    let outbox = try store.projection(OutboxProjection.self)
    return try read(records: false) { txn, objects, _ in
      var tags: [String: String] = [:]
      for name in names {
        for kind in [ObjectKind.event, .reminder] {
          if let (id, _) = try objects.items(kind, named: name, inCalendar: calendarID, in: txn).first,
            let tag = try outbox.entityTag(kind, id, inCalendar: calendarID, in: txn)?.entityTag, !tag.isEmpty
          {
            tags[name] = tag
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
    let outbox = try store.projection(OutboxProjection.self)
    return try write(nil) { txn, appender, objects in
      let calendar = try liveCalendar(calendarID, objects: objects, in: txn)
      guard var remote = calendar.remote else { throw StoreError.calendar(.notAnAccountCalendar(calendarID)) }
      let source = Principal.source(calendar.source.id.description)
      var result = RemoteApply()
      for change in changes {
        let name: String
        let serverTag: String?
        switch change {
        case .removed(let removed): (name, serverTag) = (removed, nil)
        case .stored(let stored, let tag, _): (name, serverTag) = (stored, tag)
        }
        // A local change waiting to go out: the server's version wins only when the server changed
        // the object since the change was based on it — a conflict, recorded before it is applied.
        var conflict = false
        if let waiting = try txn.reading({ txn in try outbox.pending(name, inCalendar: calendarID, in: txn) }) {
          guard waiting.base != serverTag else {
            result.unchanged += 1  // The server holds what the change was based on (or never held it).
            continue
          }
          if serverTag == nil, try txn.reading({ txn in try Self.named(name, in: calendarID, objects, txn) }).isEmpty {
            // Removed on both sides: nothing to keep, and nothing waits any more.
            try Self.appendDelivered(
              name, entityTag: nil, carries: waiting.last, calendar: calendarID, source, &txn, &appender)
            result.lastPosition = appender.head.position
            continue
          }
          if case .stored(_, let tag, let object) = change,
            let held = try txn.reading({ txn in try Self.holding(object, named: name, in: calendarID, objects, txn) })
          {
            // The server holds what waits here already (sent by a sync that stopped before it
            // recorded the delivery): delivered, not a conflict.
            try Self.appendDelivered(
              name, entityTag: tag, carries: waiting.last, events: held.events.map(\.id),
              reminders: held.reminders.map(\.id), calendar: calendarID, source, &txn, &appender)
            result.lastPosition = appender.head.position
            result.unchanged += 1
            continue
          }
          try Self.appendConflict(
            name, localVersion: waiting.last, base: waiting.base, serverTag: serverTag, collection: calendarID, source,
            &txn, &appender)
          result.conflicts.append(name)
          result.lastPosition = appender.head.position
          conflict = true
        }
        switch change {
        case .removed(let name):
          let existing = try txn.reading { txn in try Self.named(name, in: calendarID, objects, txn) }
          for (id, isEvent) in existing {
            try Self.appendRemoved(id, isEvent: isEvent, calendar: calendarID, source, &txn, &appender)
            result.lastPosition = appender.head.position
          }
          if !existing.isEmpty { result.removed += 1 }
        case .stored(let name, let tag, let object):
          try storeRemote(
            name: name, tag: tag, events: object.events, reminders: object.reminders, replacing: conflict, calendarID,
            source, objects, &txn, &appender, &result)
        }
      }
      if var completing {
        completing.url = remote.url
        completing.isNew = false
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

  /// The live items of `calendarID` named `name` when they say what `object` does; else `nil`.
  private static func holding(
    _ object: CheckedRemoteObject, named name: String, in calendarID: ObjectID, _ objects: ObjectProjection,
    _ txn: borrowing ReadTransaction
  ) throws -> (events: [Event], reminders: [Reminder])? {
    let events = try objects.items(.event, named: name, inCalendar: calendarID, in: txn).map {
      try decodeEvent($0, $1)
    }
    let reminders = try objects.items(.reminder, named: name, inCalendar: calendarID, in: txn).map(
      decodeStoredReminder)
    guard !(events.isEmpty && reminders.isEmpty), sameContent(events, reminders, object.events, object.reminders)
    else { return nil }
    return (events, reminders)
  }

  /// The live items of `calendarID` named `name`, each with whether it is an event.
  private static func named(
    _ name: String, in calendarID: ObjectID, _ objects: ObjectProjection, _ txn: borrowing ReadTransaction
  ) throws -> [(ObjectID, Bool)] {
    try objects.items(.event, named: name, inCalendar: calendarID, in: txn).map { ($0.0, true) }
      + objects.items(.reminder, named: name, inCalendar: calendarID, in: txn).map { ($0.0, false) }
  }

  /// Stores one object of a collection under `name` with `tag`, as ``applyRemote(_:to:completing:)``
  /// says.
  private func storeRemote(
    name: String, tag: String, events: [Event], reminders: [Reminder], replacing: Bool, _ calendarID: ObjectID,
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
    if !replacing, other.isEmpty, !existing.isEmpty, try existing.allSatisfy({ try $0.1.state.string(26) == tag }) {
      result.unchanged += 1
      return
    }
    let earlierEvents = isEvents ? try existing.map { try Self.decodeEvent($0, $1) } : []
    if !replacing, other.isEmpty, !existing.isEmpty {
      // The server holds what the store does under another ETag — a change sent from here, which
      // a server that stores items rather than bytes answers with no ETag: the new tag is
      // recorded (`remoteDelivered`), and the items are not written again.
      let earlierReminders = isEvents ? [] : try existing.map(Self.decodeStoredReminder)
      if Self.sameContent(earlierEvents, earlierReminders, events, reminders) {
        let ids = existing.map(\.0)
        try Self.appendDelivered(
          name, entityTag: tag, carries: existing.map(\.1.version).max() ?? LogPosition.none,
          events: isEvents ? ids : [],
          reminders: isEvents ? [] : ids, calendar: calendarID, source, &txn, &appender)
        result.lastPosition = appender.head.position
        result.unchanged += 1
        return
      }
    }
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

  /// Whether two versions of an object say the same in iCalendar (each item as one file, in order),
  /// but for when they were stamped and last modified: what their identifiers, versions and tags do
  /// not change.
  static func sameContent(
    _ events: [Event], _ reminders: [Reminder], _ otherEvents: [Event], _ otherReminders: [Reminder]
  ) -> Bool {
    func text(_ events: [Event], _ reminders: [Reminder]) -> [String] {
      (events.map { ICalendar(events: [$0]) } + reminders.map { ICalendar(reminders: [$0]) }).map {
        $0.serialized(stamp: Timestamp(rawValue: 0)).split(separator: "\r\n").filter {
          !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("LAST-MODIFIED:")
        }.joined(separator: "\r\n")
      }.sorted()
    }
    return events.count == otherEvents.count && reminders.count == otherReminders.count
      && text(events, reminders) == text(otherEvents, otherReminders)
  }

  /// `#RRGGBB` of a server's `calendar-color` (`#RRGGBB` or `#RRGGBBAA`), or `nil`.
  static func calendarColor(_ text: String) -> String? {
    let hex = text.dropFirst()
    guard text.first == "#", hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { return nil }
    return "#" + hex.prefix(6).uppercased()
  }
}
