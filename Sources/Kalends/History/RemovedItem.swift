/// An event or reminder removed on its own and not restored since — what Calendar's "Recently
/// Deleted" lists: when it was removed, by whom, and what it was at its last save
/// (``EventStore/removedItems(since:)``). ``EventStore/restore(_:version:)`` brings it back.
public struct RemovedItem: Hashable, Sendable {
  /// The item, by its kind and identifier.
  public let item: ErasableItem
  /// The position of its removal.
  public let position: LogPosition
  /// When it was removed.
  public let removed: Timestamp
  /// Who removed it.
  public let principal: Principal
  /// Its title at its last save; `nil` when that save's content was erased.
  public let title: String?
  /// The calendar or list it was in.
  public let calendarID: ObjectID?
}
