internal import LMDB

extension EventStore {
  /// What changed among the objects of the calendar `id` after `position` (RFC 6578's
  /// `sync-collection`, for which a position of the log is the sync token): the objects added or
  /// changed, as they are now, and the names (`CalendarObject.name`) of those gone (removed, or
  /// moved to another calendar).
  /// With `position` `nil`, a first sync: every object, and the position to continue from (with
  /// `limit`, the oldest objects, up to the last one's version).
  ///
  /// An incremental answer reads the log after `position` in one snapshot (its cost grows with the
  /// records since, not with the calendar), names each object by the name it has now or, once
  /// removed, had at its last save, and is complete up to `CalendarChanges.position`: with
  /// `limit`, it holds at most that many objects and stops before the record that would exceed it
  /// (`CalendarChanges.isTruncated`), so that the next step skips nothing.
  ///
  /// What this session sees of the calendar as `calendarObjects(inCalendar:)` gives it: a
  /// write-only session hears of no change (its attempt recorded as a refusal), a session not
  /// given the calendar gets `nil`.
  ///
  /// - Throws: ``CalendarError/changesUnavailable(after:)`` when the changes after `position`
  ///   cannot be told: a position beyond the head, or an item removed since whose last save was
  ///   erased. The client then syncs from the start.
  package func calendarChanges(
    inCalendar id: ObjectID, after position: LogPosition?, limit: Int? = nil
  ) throws(StoreError) -> CalendarChanges? {
    guard let calendar = try calendar(withID: id) else { return nil }
    guard let position else {
      // The head first: whatever commits while the objects are read is told again next time.
      let head = try store.head().position
      guard var objects = try calendarObjects(inCalendar: id) else { return nil }
      guard let limit, objects.count > limit else {
        return CalendarChanges(position: head, objects: objects, removed: [])
      }
      // The oldest first, up to the last one's version: every object left out is newer, so the
      // next step tells it.
      objects.sort { $0.version < $1.version }
      objects.removeLast(objects.count - limit)
      return CalendarChanges(position: objects.last!.version, objects: objects, removed: [], isTruncated: true)
    }
    let readable = try readableKinds(of: calendar)
    var kinds: [ObjectKind] = []
    if readable.contains(.events) { kinds.append(.event) }
    if readable.contains(.reminders) { kinds.append(.reminder) }
    var answer: CalendarChanges?
    for kind in kinds {
      let service: Service = kind == .event ? .calendars : .reminders
      let store = self.store
      let part = try readItems(service, "read a calendar's changes", hidden: CalendarChanges?.none) {
        txn, objects, uses in
        if kind == .event, let scope = try calendarScope(in: txn), !scope.contains(id) { return nil }
        uses.touch(id)
        return try Self.changes(of: kind, in: id, after: position, limit: limit, store: store, objects, in: txn)
      }
      guard let part else { continue }
      guard var merged = answer else {
        answer = part
        continue
      }
      // Complete up to the earlier of the two: what the later one told beyond it is told again.
      merged.position = min(merged.position, part.position)
      merged.objects += part.objects
      merged.removed += part.removed
      merged.isTruncated = merged.isTruncated || part.isTruncated
      answer = merged
    }
    return answer ?? CalendarChanges(position: position, objects: [], removed: [])
  }

  /// What stands for the content of the calendar `id` as this session sees it, for a collection
  /// tag (CalendarServer's `getctag`): the latest version among the calendar and the items this
  /// session may see in it, and how many those are. It changes whenever they change — an added or
  /// changed item is the newest, a removal or a move out lowers the count — and is read from the
  /// objects index without decoding an item (one entry an item). A write-only session sees the
  /// calendar alone. `nil` when the calendar does not exist or this session may not see it.
  /// Counted as the app's read only with `recordingUse` (not when the store's push delivery looks
  /// for changes on the app's behalf: it counts what it tells, ``recordPushNotices(_:)``).
  package func calendarStamp(
    inCalendar id: ObjectID, recordingUse: Bool = true
  ) throws(StoreError) -> (version: LogPosition, items: Int)? {
    try calendarStampParts(inCalendar: id, recordingUse: recordingUse).map {
      (max($0.properties, $0.version), $0.items)
    }
  }

  /// ``calendarStamp(inCalendar:recordingUse:)`` in its parts: the calendar's own version (its
  /// properties: title, color, …) apart from the latest version among its items and their count
  /// (its content), as WebDAV-Push tells property and content updates apart.
  package func calendarStampParts(
    inCalendar id: ObjectID, recordingUse: Bool
  ) throws(StoreError) -> (properties: LogPosition, version: LogPosition, items: Int)? {
    guard let calendar = try calendar(withID: id, recordingUse: recordingUse) else { return nil }
    var stamp = (properties: calendar.version, version: LogPosition.none, items: 0)
    let readable = try readableKinds(of: calendar)
    for (kind, type) in [(ObjectKind.event, EntityTypes.events), (.reminder, .reminders)]
    where readable.contains(type) {
      let service: Service = kind == .event ? .calendars : .reminders
      let part = try readItems(
        service, "read a calendar's state", hidden: (version: LogPosition.none, count: 0), records: recordingUse
      ) {
        txn, objects, uses in
        if kind == .event, let scope = try calendarScope(in: txn), !scope.contains(id) {
          return (version: LogPosition.none, count: 0)
        }
        uses.touch(id)
        return try objects.latest(kind, inCalendar: id, in: txn)
      }
      stamp.version = max(stamp.version, part.version)
      stamp.items += part.count
    }
    return stamp
  }

  /// The changes of the items of `kind` in the calendar `id` after `position`, read in `txn`.
  private static func changes(
    of kind: ObjectKind, in id: ObjectID, after position: LogPosition, limit: Int?, store: Store,
    _ objects: ObjectProjection, in txn: borrowing ReadTransaction
  ) throws -> CalendarChanges {
    let changed = try ChangedNames(
      after: position, limit: limit, store: store, in: txn,
      item: { header, payload in
        guard let change = try ChangeExtractor.change(header, payload), change.calendar == id || change.movedFrom == id
        else { return nil }
        return Self.item(change.object, of: kind)
      },
      name: { item in try Self.name(of: item, kind, objects, after: position, in: txn) })
    var changes = CalendarChanges(
      position: changed.position, objects: [], removed: [], isTruncated: changed.isTruncated)
    for name in changed.names {
      let items = try objects.items(kind, named: name, inCalendar: id, in: txn)
      guard let uid = try items.first?.1.state.string(1) else {
        changes.removed.append(name)
        continue
      }
      switch kind {
      case .reminder:
        let reminders = try items.map { item, stored in
          try ModelCodec.decodeReminder(
            id: item, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state)
        }
        changes.objects.append(CalendarObject(uid: uid, name: name, reminders: reminders))
      default:
        changes.objects.append(
          CalendarObject(uid: uid, name: name, events: try items.map { try Self.decodeEvent($0, $1) }))
      }
    }
    return changes
  }

  /// The identifier of `object` when it is an item of `kind`.
  private static func item(_ object: ChangedObject, of kind: ObjectKind) -> ObjectID? {
    switch (object, kind) {
    case (.event(let id), .event), (.reminder(let id), .reminder): id
    default: nil
    }
  }

  /// The name (`CalendarObject.name`) the item `id` has now or, once removed, had at its last
  /// save; throws ``CalendarError/changesUnavailable(after:)`` when that is no longer known (its
  /// content erased, or it went with another calendar).
  private static func name(
    of id: ObjectID, _ kind: ObjectKind, _ objects: ObjectProjection, after position: LogPosition,
    in txn: borrowing ReadTransaction
  ) throws -> String {
    guard let stored = try objects.state(kind, id, in: txn),
      let state = stored.isLive ? stored.state : try objects.lastState(stored, kind, id, in: txn),
      let uid = try state.string(1)
    else { throw StoreError.calendar(.changesUnavailable(after: position)) }
    return try state.string(22) ?? uid
  }
}
