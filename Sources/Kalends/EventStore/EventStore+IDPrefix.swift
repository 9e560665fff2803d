internal import LMDB

extension EventStore {
  /// The live events whose identifier begins with `prefix` — hex digits in either case, dashes
  /// ignored (`4dc1`, `4DC154C1-AD32`), at least four — that this session may see, in identifier
  /// order, at most `limit`: how a person names an event by the start of its id, as git names
  /// commits. Another prefix finds none. An app's call is checked and recorded as a read of its
  /// calendars, and its chosen calendars bound what it finds.
  public func eventIDs(beginningWith prefix: String, limit: Int = 10) throws(StoreError) -> [ObjectID] {
    guard let nibbles = IDPrefixScan.nibbles(prefix) else { return [] }
    return try readItems(.calendars, "read events", hidden: []) { txn, objects, uses in
      try Self.liveIDs(.event, nibbles, limit: limit, scope: try calendarScope(in: txn), objects, uses, txn)
    }
  }

  /// The live reminders whose identifier begins with `prefix`, as ``eventIDs(beginningWith:limit:)``
  /// finds events; an app's call is a read of its reminders.
  public func reminderIDs(beginningWith prefix: String, limit: Int = 10) throws(StoreError) -> [ObjectID] {
    guard let nibbles = IDPrefixScan.nibbles(prefix) else { return [] }
    return try readItems(.reminders, "read reminders", hidden: []) { txn, objects, uses in
      try Self.liveIDs(.reminder, nibbles, limit: limit, scope: nil, objects, uses, txn)
    }
  }

  /// The live items of `kind` whose ids begin with `nibbles`, in calendars of `scope` (all when
  /// `nil`), at most `limit`: removed and hidden ones are read past. Notes the calendars read.
  private static func liveIDs(
    _ kind: ObjectKind, _ nibbles: [UInt8], limit: Int, scope: Set<ObjectID>?, _ objects: ObjectProjection,
    _ uses: ReadUses, _ txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    var found: [ObjectID] = []
    for id in try IDPrefixScan.ids(kind.rawValue, beginningWith: nibbles, in: objects.objects, txn)
    where found.count < limit {
      guard let stored = try objects.state(kind, id, in: txn), stored.isLive else { continue }
      if let scope, !scope.contains(stored.calendarID) { continue }
      uses.touch(stored.calendarID)
      found.append(id)
    }
    return found
  }
}
