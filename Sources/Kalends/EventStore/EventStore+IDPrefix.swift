extension EventStore {
  /// The live events whose identifier begins with `prefix` — hex digits in either case, dashes
  /// ignored (`4dc1`, `4DC154C1-AD32`), at least four — that this session may see, in identifier
  /// order, at most `limit`: how a person names an event by the start of its id, as git names
  /// commits. Another prefix finds none. An app's call is checked and recorded as a read of its
  /// calendars, and its chosen calendars bound what it finds.
  public func eventIDs(beginningWith prefix: String, limit: Int = 10) throws(StoreError) -> [ObjectID] {
    guard let nibbles = Self.nibbles(prefix) else { return [] }
    return try readItems(.calendars, "read events", hidden: []) { txn, objects, uses in
      let scope = try calendarScope(in: txn)
      var found: [ObjectID] = []
      // Removed and hidden ones are skipped: read past them until `limit` are found.
      for id in try objects.ids(.event, beginningWith: nibbles, limit: Int.max, in: txn) where found.count < limit {
        guard let stored = try objects.state(.event, id, in: txn), stored.isLive else { continue }
        if let scope, !scope.contains(stored.calendarID) { continue }
        uses.touch(stored.calendarID)
        found.append(id)
      }
      return found
    }
  }

  /// The live reminders whose identifier begins with `prefix`, as ``eventIDs(beginningWith:limit:)``
  /// finds events; an app's call is a read of its reminders.
  public func reminderIDs(beginningWith prefix: String, limit: Int = 10) throws(StoreError) -> [ObjectID] {
    guard let nibbles = Self.nibbles(prefix) else { return [] }
    return try readItems(.reminders, "read reminders", hidden: []) { txn, objects, uses in
      var found: [ObjectID] = []
      for id in try objects.ids(.reminder, beginningWith: nibbles, limit: Int.max, in: txn) where found.count < limit {
        guard let stored = try objects.state(.reminder, id, in: txn), stored.isLive else { continue }
        uses.touch(stored.calendarID)
        found.append(id)
      }
      return found
    }
  }

  /// The hex digits of `prefix` as nibbles, without dashes; `nil` for fewer than four, more than
  /// 32, or anything else than hex digits and dashes.
  static func nibbles(_ prefix: String) -> [UInt8]? {
    var nibbles: [UInt8] = []
    for byte in prefix.utf8 where byte != UInt8(ascii: "-") {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
    }
    return (4...32).contains(nibbles.count) ? nibbles : nil
  }
}
