internal import LMDB

extension EventStore {
  /// Every version of `item`, oldest first: each save (what it was, who saved it, when), its
  /// removal — by a record of its own or with its calendar — and the erasure of its content. The
  /// log holds them all; nothing else is needed to tell them.
  ///
  /// Reading it takes one pass over the log (about as long as ``PrivacySettings/erase(_:reason:)``'s search).
  /// Saves whose content was erased are listed without a ``ItemVersion/state``.
  ///
  /// - Throws: ``AccessError/ownerOnly(_:)`` for an app (recorded): a history holds what the item
  ///   was, which no app's access covers; ``CalendarError/itemNotFound(_:)`` when no record names
  ///   the item.
  public func history(of item: ErasableItem) throws(StoreError) -> [ItemVersion] {
    try requireOwner("read an item's history")
    let log = store.log
    let versions = try StoreError.wrapping {
      try store.environment.read { txn in try ItemHistory.versions(of: item, in: log, txn: txn) }
    }
    guard !versions.isEmpty else {
      if case .calendar(let id) = item { throw StoreError.calendar(.calendarNotFound(id)) }
      throw StoreError.calendar(.itemNotFound(item.id))
    }
    return versions
  }

  /// Saves the state `item` had at `version` again, as a new save by the person: the earlier
  /// version comes back whole — an event as the whole series with its detached occurrences, a
  /// contact with its groups (those still there) — and a removed item is live again under its
  /// identifier (``ItemChange/created``; a live one is ``ItemChange/modified``). The record names
  /// `version` (`restoredFrom`); history is not rewritten, and erased content stays erased.
  ///
  /// An event or reminder comes back into the calendar it was in at `version`, which must be
  /// there and allow the change; a calendar comes back without the items removed with it (restore
  /// each of them after it). One record in one transaction, or nothing.
  ///
  /// - Returns: The item as saved, at its new version.
  /// - Throws: ``AccessError/ownerOnly(_:)`` for an app (recorded);
  ///   ``CalendarError/versionNotFound(_:_:)`` when `version` is not a save of `item`;
  ///   ``CalendarError/versionErased(_:_:)`` when its content was erased;
  ///   ``CalendarError/calendarNotFound(_:)``, ``CalendarError/calendarReadOnly(_:)`` or the kind's
  ///   refusal when its calendar cannot take it; ``CalendarError/uidInUse(uid:name:)`` when
  ///   another live item of the calendar (or another contact or group) now has its `UID`.
  @discardableResult
  public func restore(_ item: ErasableItem, version: LogPosition) throws(StoreError) -> ItemState {
    try requireOwner("restore an earlier version")
    let actor = self.actor
    let book = try contactsBook()
    return try write(nil) { txn, appender, objects in
      let saved = try txn.withValue(forKey: BigEndianKey(version.rawValue), in: appender.log) { value in
        try Self.savedVersion(of: item, at: version, value)
      }
      guard let saved else { throw StoreError.calendar(.versionNotFound(item.id, version)) }
      var live = false
      var movedFrom: ObjectID?
      switch item {
      case .calendar, .event, .reminder:
        let kind = ObjectKind(rawValue: item.typeNumber)!
        let stored = try objects.state(kind, item.id, in: txn)
        live = stored?.isLive ?? false
        if let calendarID = saved.calendar {
          let calendar = try liveCalendar(calendarID, objects: objects, in: txn)
          let isEvent = kind == .event
          guard calendar.allowedEntityTypes.contains(isEvent ? .events : .reminders) else {
            throw StoreError.calendar(
              isEvent ? .calendarDoesNotAllowEvents(calendarID) : .calendarDoesNotAllowReminders(calendarID))
          }
          guard calendar.allowsContentModifications else { throw StoreError.calendar(.calendarReadOnly(calendarID)) }
          if let stored, live, stored.calendarID != calendarID {
            let previous = try liveCalendar(stored.calendarID, objects: objects, in: txn)
            guard previous.allowsContentModifications else {
              throw StoreError.calendar(.calendarReadOnly(previous.id))
            }
            movedFrom = previous.id
          }
          if let uid = try saved.state.string(1),
            let (_, holder) = try txn.reading({
              try objects.items(kind, externalID: uid, inCalendar: calendarID, in: $0).first { $0.0 != item.id }
            })
          {
            throw StoreError.calendar(.uidInUse(uid: uid, name: try holder.state.string(22) ?? uid))
          }
        }
      case .contact, .group:
        let kind: ContactObjectKind = item.saveKind == .contactSaved ? .contact : .group
        live = try book.isLive(kind, item.id, in: txn)
        let field: ContactSearchKey.Field = kind == .contact ? .contactExternalID : .groupExternalID
        if let uid = try saved.state.string(1), let (other, _) = try ContactStore.stored(field, uid, kind, book, &txn),
          other != item.id
        {
          throw StoreError.calendar(.uidInUse(uid: uid, name: uid))
        }
      }
      var payload = Payload()
      payload.append(tag: 1, id: item.id)
      if let calendar = saved.calendar { payload.append(tag: 2, id: calendar) }
      payload.append(tag: 3, unsigned: (live ? ItemChange.modified : .created).rawValue)
      payload.append(tag: 5, bytes: saved.bytes)
      if let movedFrom { payload.append(tag: 7, id: movedFrom) }
      payload.append(tag: 8, unsigned: version.rawValue)
      let header = try appender.append(RecordDraft(kind: item.saveKind, principal: actor, payload: payload), in: &txn)
      return try ItemHistory.decode(
        item, saved.state, calendar: saved.calendar, version: header.position, modified: header.timestamp)
    }
  }

  /// The state field (5) of the record `value` at `version` when it is a save of `item` with its
  /// content, and the calendar it names.
  private static func savedVersion(
    of item: ErasableItem, at version: LogPosition, _ value: RawSpan
  ) throws -> (bytes: [UInt8], state: PayloadReader, calendar: ObjectID?) {
    var principals = PrincipalCache()
    let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
    let reader = try PayloadReader(bytes: value.extracting(decoded.payload))
    guard decoded.header.kind == item.saveKind, try reader.objectID(1) == item.id else {
      throw StoreError.calendar(.versionNotFound(item.id, version))
    }
    guard decoded.header.content == .present, let bytes = reader.bytes(5) else {
      throw StoreError.calendar(.versionErased(item.id, version))
    }
    let calendar = item.holdsItems ? try reader.requiredObjectID(2) : nil
    return (bytes, try PayloadReader(bytes: bytes.span.bytes), calendar)
  }
}

extension EventStore {
  /// The objects of `kind` — live or removed — whose identifier begins with `prefix`, as
  /// ``eventIDs(beginningWith:limit:)`` reads prefixes, in identifier order, at most `limit`: how
  /// the person names what ``history(of:)`` and ``restore(_:version:)`` address.
  ///
  /// - Throws: ``AccessError/ownerOnly(_:)`` for an app (recorded): removed objects are no app's.
  public func items(
    _ kind: ErasableItem.Kind, beginningWith prefix: String, limit: Int = 10
  ) throws(StoreError) -> [ErasableItem] {
    try requireOwner("find removed objects")
    guard let nibbles = IDPrefixScan.nibbles(prefix) else { return [] }
    let database = kind == .contact || kind == .group ? try contactsBook().objects : try objects().objects
    return try StoreError.wrapping {
      try store.environment.read { txn in
        try IDPrefixScan.ids(kind.typeNumber, beginningWith: nibbles, in: database, txn).prefix(limit).map(kind.item)
      }
    }
  }
}
