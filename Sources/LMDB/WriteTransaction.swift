internal import CLMDB

/// The one write transaction of the environment, lent to the closure of ``Environment/write(_:)``.
///
/// It commits when the closure returns and is rolled back when the closure throws; it can be
/// neither committed twice nor kept. Its reads see its own writes.
package struct WriteTransaction: ~Copyable {
  let handle: OpaquePointer
  /// The first error that left the transaction unusable; LMDB refuses to commit after one.
  /// Benign outcomes (a key that exists or is absent, a bad size rejected up front) do not count.
  var failure: LMDBError?

  init(handle: OpaquePointer) { self.handle = handle }

  /// Whether an LMDB failure has left the transaction unusable (it will not commit).
  package var hasFailed: Bool { failure != nil }

  private mutating func record(_ code: Int32) throws(LMDBError) {
    guard code != 0 else { return }
    let error = LMDBError(code: code)
    switch error {
    case .keyExists, .notFound, .badValueSize, .incompatible: break
    default: if failure == nil { failure = error }
    }
    throw error
  }

  // The reads are ReadTransaction's, through the read view of this transaction (``reading(_:)``).

  /// Calls `body` with the value stored under `key`; returns `nil` without calling it when absent.
  package func withValue<R>(
    forKey key: some LMDBBytes, in database: Database, _ body: (RawSpan) throws -> R
  ) throws -> R? {
    try reading { try $0.withValue(forKey: key, in: database, body) }
  }

  /// A copy of the value stored under `key`, or `nil`.
  package func value(forKey key: some LMDBBytes, in database: Database) throws -> [UInt8]? {
    try reading { try $0.value(forKey: key, in: database) }
  }

  /// Whether `key` is present.
  package func contains(_ key: some LMDBBytes, in database: Database) throws -> Bool {
    try reading { try $0.contains(key, in: database) }
  }

  /// Stores `value` under `key`.
  package mutating func put(
    _ value: some LMDBBytes, forKey key: some LMDBBytes, in database: Database, options: PutOptions = []
  ) throws(LMDBError) {
    let handle = self.handle
    let rc = key.withLMDBBytes { key in
      value.withLMDBBytes { value in
        MDBValue.with(key) { key in
          MDBValue.with(value) { value in mdb_put(handle, database.dbi, &key, &value, options.rawValue) }
        }
      }
    }
    try record(rc)
  }

  /// Stores `value` under `key`, both given as byte views.
  package mutating func put(
    _ value: RawSpan, forKey key: RawSpan, in database: Database, options: PutOptions = []
  ) throws(LMDBError) {
    let handle = self.handle
    let rc = MDBValue.with(key) { key in
      MDBValue.with(value) { value in mdb_put(handle, database.dbi, &key, &value, options.rawValue) }
    }
    try record(rc)
  }

  /// Removes `key` (in a duplicate-sorted database: all its values). Returns whether it was present.
  @discardableResult
  package mutating func delete(_ key: some LMDBBytes, in database: Database) throws(LMDBError) -> Bool {
    let handle = self.handle
    let rc = key.withLMDBBytes { key in
      MDBValue.with(key) { key in mdb_del(handle, database.dbi, &key, nil) }
    }
    if rc == MDB_NOTFOUND { return false }
    try record(rc)
    return true
  }

  /// Removes one `value` of `key` in a duplicate-sorted database. Returns whether it was present.
  @discardableResult
  package mutating func delete(
    _ key: some LMDBBytes, value: some LMDBBytes, in database: Database
  ) throws(LMDBError) -> Bool {
    let handle = self.handle
    let rc = key.withLMDBBytes { key in
      value.withLMDBBytes { value in
        MDBValue.with(key) { key in MDBValue.with(value) { value in mdb_del(handle, database.dbi, &key, &value) } }
      }
    }
    if rc == MDB_NOTFOUND { return false }
    try record(rc)
    return true
  }

  /// Removes every entry of `database`, keeping the database itself.
  package mutating func removeAll(in database: Database) throws(LMDBError) {
    try record(mdb_drop(handle, database.dbi, 0))
  }

  /// Opens a named database (`nil`: the unnamed one), creating it with ``DatabaseOptions/create``.
  /// Fails with ``LMDBError/incompatible`` when it exists with other options.
  package mutating func openDatabase(
    named name: String?, options: DatabaseOptions = .create
  ) throws(LMDBError) -> Database {
    do {
      return try TransactionOperations.openDatabase(handle, name, options)
    } catch {
      if failure == nil, error != .notFound { failure = error }
      throw error
    }
  }

  /// Opens a cursor on `database` for the duration of `body`.
  @discardableResult
  package func withCursor<R>(on database: Database, _ body: (inout Cursor) throws -> R) throws -> R {
    try reading { try $0.withCursor(on: database, body) }
  }

  /// The B-tree statistics of `database`, including its number of entries.
  package func statistics(of database: Database) throws(LMDBError) -> DatabaseStatistics {
    try TransactionOperations.statistics(handle, database)
  }

  /// Runs `body` in a transaction nested in this one: its writes become this transaction's when
  /// `body` returns, and are undone, leaving this transaction as it was, when `body` throws. How
  /// several writers' changes share one commit while each stays all or nothing (group commit).
  /// An LMDB failure inside (a full map) also fails this transaction, so that the whole write is
  /// retried as ``Environment/write(_:)`` retries it.
  package mutating func nested<R>(_ body: (inout WriteTransaction) throws -> R) throws -> R {
    var child: OpaquePointer?
    let begun = mdb_txn_begin(mdb_txn_env(handle), handle, 0, &child)
    guard begun == 0, let child else {
      try record(begun == 0 ? MDB_PANIC : begun)
      fatalError("unreachable: record throws for a nonzero code")
    }
    var transaction = WriteTransaction(handle: child)
    let result: R
    do {
      result = try body(&transaction)
    } catch {
      mdb_txn_abort(child)
      if let failure = transaction.failure, self.failure == nil { self.failure = failure }
      throw error
    }
    if let failure = transaction.failure {
      mdb_txn_abort(child)
      if self.failure == nil { self.failure = failure }
      throw failure
    }
    try record(mdb_txn_commit(child))
    return result
  }

  /// Lends `body` a read view of this transaction: it sees the transaction's own writes, so code
  /// written against a ``ReadTransaction`` reads the state a write is deciding on, in its snapshot.
  package func reading<R>(_ body: (borrowing ReadTransaction) throws -> R) rethrows -> R {
    try body(ReadTransaction(handle: handle))
  }
}
