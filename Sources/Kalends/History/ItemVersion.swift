/// One entry of an item's history (``EventStore/history(of:)``): a record of the log that saved,
/// removed or erased the item, with who wrote it and when.
public struct ItemVersion: Hashable, Sendable {
  /// What the record did to the item.
  public enum Action: Hashable, Sendable, CustomStringConvertible {
    /// A save: the item as it was then is ``ItemVersion/state`` (unless its content was erased).
    case saved(ItemChange)
    /// The item was removed by a record of its own.
    case removed
    /// The item went with its calendar, removed by this record.
    case removedWithCalendar(ObjectID)
    /// The content of the item's records was erased by this record.
    case contentErased

    public var description: String {
      switch self {
      case .saved(let change): change.description
      case .removed: "removed"
      case .removedWithCalendar: "removedWithCalendar"
      case .contentErased: "contentErased"
      }
    }
  }

  /// The record's position: the version a save made, which ``EventStore/restore(_:version:)`` takes.
  public let position: LogPosition
  /// When it was written.
  public let timestamp: Timestamp
  /// Who wrote it: the person, an app, a policy or the system.
  public let principal: Principal
  /// What it did.
  public let action: Action
  /// For a save that restored an earlier version, that version.
  public let restoredFrom: LogPosition?
  /// For the first save of a series split from another (``Span/futureEvents``), that series.
  public let splitFrom: ObjectID?
  /// Whether the record's content is still in the log; an erased save names what changed and when,
  /// no longer what it was.
  public let content: RecordContent
  /// The item as this save left it (its ``ItemState/version`` is ``position``); `nil` for a
  /// removal or an erasure, and for a save whose content was erased.
  public let state: ItemState?

  /// Whether ``EventStore/restore(_:version:)`` can bring this version back: a save whose content
  /// is still there.
  public var isRestorable: Bool { state != nil }
}
