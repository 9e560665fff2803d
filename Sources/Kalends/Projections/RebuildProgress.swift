/// How far a rebuild of the projections is (``Store/rebuildProjections(progress:)``).
public enum RebuildProgress: Sendable, Hashable {
  /// Records of the log read (or replayed one by one), of `total` (the head's position).
  case reading(done: Int, total: Int)
  /// Projections prepared and written in full, of the `total` being rebuilt; reported once reading
  /// is done and each time one is written, since a loader's output is known only once it has read
  /// the whole log.
  case writing(done: Int, total: Int)
  /// Leaves added to the Merkle tree of a store written before Kalends kept one, of `total` (the
  /// head's position): reported while such a store is first opened writable.
  case tree(done: Int, total: Int)
}
