internal import LMDB

extension Store {
  /// How many instances the date-range index holds (single events, materialised occurrences and
  /// detached ones, up to the horizon). `range.instances` packs them in blocks, so its entry count
  /// in ``projectionDigests()`` is the number of blocks.
  public func indexedInstanceCount() throws(StoreError) -> Int {
    let range = try projection(RangeProjection.self)
    return try StoreError.wrapping {
      try environment.read { txn in try InstanceBlocks.count(in: range.instances, txn) }
    }
  }
}
