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
  package func updateClientProperties(
    _ changes: [String: String?], ofObjectNamed name: String, inCalendar id: ObjectID,
    condition: ObjectCondition = .none
  ) throws(StoreError) -> CalendarObject {
    let actor = self.actor
    return try write(nil) { txn, appender, objects in
      let (existing, isEvents) = try changeableItems(
        named: name, inCalendar: id, condition: condition, objects, in: txn,
        operation: "set a calendar object's properties",
        outsideScope: "change an event of a calendar it was not given")
      if isEvents {
        let events = try Self.resaved(existing.map { try Self.decodeEvent($0, $1) }, with: changes) {
          try Self.appendSaved($0, change: .modified, occurrence: nil, actor, &txn, &appender)
        }
        return CalendarObject(uid: events[0].externalID, events: events)
      }
      let reminders = try Self.resaved(existing.map { try Self.decodeStoredReminder($0, $1) }, with: changes) {
        try Self.appendSaved($0, change: .modified, actor, &txn, &appender)
      }
      return CalendarObject(uid: reminders[0].externalID, reminders: reminders)
    }
  }

  /// `items` (the items of one resource, or one card), each saved by `save` with the dead
  /// properties of the first with `changes` made, once checked; as they are when that changes
  /// nothing.
  static func resaved<Item: ClientPropertyHolder>(
    _ items: [Item], with changes: [String: String?], save: (Item) throws -> Item
  ) throws -> [Item] {
    let properties = applying(changes, to: items[0].clientProperties)
    try checkClientProperties(properties)
    guard properties != items[0].clientProperties else { return items }
    return try items.map { item in
      var item = item
      item.clientProperties = properties
      return try save(item)
    }
  }

  /// `properties` with `changes` made: a value set, `nil` removed.
  package static func applying(_ changes: [String: String?], to properties: [String: String]) -> [String: String] {
    var result = properties
    for (name, value) in changes { result[name] = value }
    return result
  }
}

/// What holds WebDAV dead properties of its resource: an event, a reminder, a contact, a group.
protocol ClientPropertyHolder {
  var clientProperties: [String: String] { get set }
}

extension Event: ClientPropertyHolder {}
extension Reminder: ClientPropertyHolder {}
extension Contact: ClientPropertyHolder {}
extension ContactGroup: ClientPropertyHolder {}
