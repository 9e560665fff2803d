/// One change a sync brings from an account's collection into the calendar mirroring it
/// (``EventStore/applyRemote(_:to:completing:)``).
package enum RemoteChange: Sendable {
  /// The object at `name` in the collection, as the server holds it with `entityTag`.
  case stored(name: String, entityTag: String, object: CheckedRemoteObject)
  /// The object at `name` is gone from the collection.
  case removed(name: String)
}

/// An object of an account's collection, its items checked as a save checks them and placed in
/// the calendar it goes to. Made only by ``EventStore/checkRemote(_:in:)``: what a sync takes is
/// checked once, before it decides to quarantine it, and never stored unchecked.
package struct CheckedRemoteObject: Sendable {
  /// The calendar it was checked for.
  let calendarID: ObjectID
  let events: [Event]
  let reminders: [Reminder]
}

/// What applying changes from an account's collection did.
public struct RemoteApply: Sendable, Hashable {
  /// Objects new to the calendar.
  public var created = 0
  /// Objects the server changed.
  public var updated = 0
  /// Objects the calendar held already as the server does (the same `ETag`).
  public var unchanged = 0
  /// Objects gone from the server, removed.
  public var removed = 0
  /// Objects changed both here and on the server: the server's version was kept, the local one is
  /// in history (a ``RecordKind/remoteConflict`` record each), by name.
  public var conflicts: [String] = []
  /// Objects not taken, with why (their `UID` held under another name of the collection).
  public var quarantined: [RemoteCollection.QuarantinedObject] = []
  /// The position of the last record written; `nil` when nothing was.
  public var lastPosition: LogPosition?

  public init() {}

  /// Adds `other`'s counts to these.
  public mutating func add(_ other: RemoteApply) {
    created += other.created
    updated += other.updated
    unchanged += other.unchanged
    removed += other.removed
    quarantined += other.quarantined
    conflicts += other.conflicts
    lastPosition = other.lastPosition ?? lastPosition
  }
}
