/// A read-only snapshot of the environment, lent to the closure of ``Environment/read(_:)``.
///
/// It sees the data as of the moment it began, whatever writers do meanwhile, and ends when the
/// closure returns. Bytes it lends are valid only inside the closure that receives them.
package struct ReadTransaction: ~Copyable {
  let handle: OpaquePointer

  /// Calls `body` with the value stored under `key`; returns `nil` without calling it when absent.
  package func withValue<R>(
    forKey key: some LMDBBytes, in database: Database, _ body: (RawSpan) throws -> R
  ) throws -> R? {
    try key.withLMDBBytes { key in try TransactionOperations.withValue(handle, key, database, body) }
  }

  /// A copy of the value stored under `key`, or `nil`.
  package func value(forKey key: some LMDBBytes, in database: Database) throws -> [UInt8]? {
    try withValue(forKey: key, in: database) { Array(copying: $0) }
  }

  /// Whether `key` is present.
  package func contains(_ key: some LMDBBytes, in database: Database) throws -> Bool {
    try withValue(forKey: key, in: database) { _ in true } ?? false
  }

  /// Opens a cursor on `database` for the duration of `body`.
  @discardableResult
  package func withCursor<R>(on database: Database, _ body: (inout Cursor) throws -> R) throws -> R {
    try TransactionOperations.withCursor(handle, database, body)
  }

  /// The B-tree statistics of `database`, including its number of entries.
  package func statistics(of database: Database) throws(LMDBError) -> DatabaseStatistics {
    try TransactionOperations.statistics(handle, database)
  }

  /// Opens an existing named database (`nil`: the unnamed one) created with `options`. Fails with
  /// ``LMDBError/notFound`` when it does not exist, ``LMDBError/incompatible`` when it was created
  /// with other options.
  package func openDatabase(named name: String?, options: DatabaseOptions = []) throws(LMDBError) -> Database {
    try TransactionOperations.openDatabase(handle, name, options)
  }
}

extension Array where Element == UInt8 {
  /// Copies the bytes of `span`.
  package init(copying span: RawSpan) {
    self = span.withUnsafeBytes { Array($0) }
  }
}
