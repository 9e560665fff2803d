/// What ``EventStore/erase(_:reason:)`` did.
public struct Erasure: Hashable, Sendable {
  /// What was erased.
  public let item: ErasableItem
  /// The removal appended first, when the object was still there (it is removed before its content
  /// is erased: a live object's state is its last save's content).
  public let removal: LogPosition?
  /// The records whose content was erased, in log order; empty when nothing was left to erase.
  public let erasedPositions: [LogPosition]
  /// The `contentErased` record that names them; `nil` when nothing was erased.
  public let record: LogPosition?
}
