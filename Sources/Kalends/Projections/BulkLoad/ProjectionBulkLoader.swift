package import LMDB

/// Builds a projection from the whole log in memory and writes its databases in key order, for a
/// rebuild into empty databases: one sequential `MDB_APPEND` per entry instead of a random B-tree
/// insert (and the later updates and deletions) per change.
///
/// A loader must leave exactly the bytes that applying every record with ``Projection/apply(_:payload:in:)``
/// leaves: `Store.verifyProjections()` and the rebuild tests compare their digests.
package protocol ProjectionBulkLoader {
  /// Told before the first record how many records the log holds and how many bytes they take at
  /// most, to reserve memory once (address space only: pages are touched as they fill).
  mutating func reserve(records: Int, bytes: Int)

  /// Takes the next record of the projection's kinds, in log order.
  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws

  /// Resolves what is to be written, in key order, once every record is applied.
  mutating func prepare() throws

  /// Waits, before each write transaction (so that the write lock is not held meanwhile), until the
  /// next call of ``write(in:limit:)`` has something to write.
  mutating func awaitNextChunk() throws

  /// Writes up to `limit` more entries into the projection's databases (empty when the first call
  /// starts); returns whether everything is written. A transaction that is rolled back must be
  /// retried with the loader as it was before the call.
  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool
}

extension ProjectionBulkLoader {
  package mutating func reserve(records: Int, bytes: Int) {}

  package mutating func awaitNextChunk() throws {}
}
