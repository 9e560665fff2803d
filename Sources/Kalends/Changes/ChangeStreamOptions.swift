/// Bounds of a change subscription.
public struct ChangeStreamOptions: Hashable, Sendable {
  /// The most records one notice covers while catching up with history; larger histories come
  /// in several notices, each with its objects listed.
  public var catchUpBatch: Int
  /// Live: when more records than this are pending for the subscriber, its next notice covers all
  /// of them with ``ChangeNotice/refetchAll`` instead of listing objects.
  public var maxPendingRecords: Int
  /// The most objects a notice lists; past it the notice says ``ChangeNotice/refetchAll``.
  public var maxObjects: Int

  /// Bounds suited to an app: catch up 1,000 records at a time; refetch everything past 10,000
  /// pending records or 1,000 changed objects.
  public init(catchUpBatch: Int = 1_000, maxPendingRecords: Int = 10_000, maxObjects: Int = 1_000) {
    self.catchUpBatch = max(1, catchUpBatch)
    self.maxPendingRecords = max(1, maxPendingRecords)
    self.maxObjects = max(1, maxObjects)
  }
}
