/// What ``PrivacySettings/erase(_:reason:)`` did.
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
  /// For an event: the later parts of its series that were split from it (a save with
  /// ``Span/futureEvents``), and those split from them, erased with it, each removed and erased as
  /// an event of its own (its own `contentErased` record); in log order.
  public let continuations: [Erasure]

  init(
    item: ErasableItem, removal: LogPosition?, erasedPositions: [LogPosition], record: LogPosition?,
    continuations: [Erasure] = []
  ) {
    self.item = item
    self.removal = removal
    self.erasedPositions = erasedPositions
    self.record = record
    self.continuations = continuations
  }
}
