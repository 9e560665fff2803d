internal import CLMDB

/// Operations shared by read and write transactions, on a raw transaction handle.
enum TransactionOperations {
  static func withValue<R>(
    _ txn: OpaquePointer, _ key: RawSpan, _ database: Database, _ body: (RawSpan) throws -> R
  ) throws -> R? {
    var value = MDB_val()
    let rc = MDBValue.with(key) { key in mdb_get(txn, database.dbi, &key, &value) }
    if rc == MDB_NOTFOUND { return nil }
    try MDBValue.check(rc)
    return try MDBValue.lend(value, body)
  }

  static func withCursor<R>(
    _ txn: OpaquePointer, _ database: Database, _ body: (inout Cursor) throws -> R
  ) throws -> R {
    var handle: OpaquePointer?
    try MDBValue.check(mdb_cursor_open(txn, database.dbi, &handle))
    guard let handle else { throw LMDBError.badTransaction }
    defer { mdb_cursor_close(handle) }
    var cursor = Cursor(handle: handle, transaction: txn, dbi: database.dbi)
    return try body(&cursor)
  }

  static func statistics(_ txn: OpaquePointer, _ database: Database) throws(LMDBError) -> DatabaseStatistics {
    var stat = MDB_stat()
    try MDBValue.check(mdb_stat(txn, database.dbi, &stat))
    return DatabaseStatistics(stat)
  }

  static func openDatabase(
    _ txn: OpaquePointer, _ name: String?, _ options: DatabaseOptions
  ) throws(LMDBError) -> Database {
    var dbi = MDB_dbi()
    let rc: Int32
    if let name {
      rc = mdb_dbi_open(txn, name, options.rawValue, &dbi)
    } else {
      rc = mdb_dbi_open(txn, nil, options.rawValue, &dbi)
    }
    try MDBValue.check(rc)
    // LMDB adopts the flags stored in the catalog: a database opened with others (or whose
    // catalog record was overwritten) would compare its keys in another order.
    var stored: UInt32 = 0
    try MDBValue.check(mdb_dbi_flags(txn, dbi, &stored))
    guard stored & Self.persistentFlags == options.rawValue & Self.persistentFlags else { throw .incompatible }
    return Database(dbi: dbi, name: name)
  }

  /// The flags LMDB keeps with a database (all but `MDB_CREATE`).
  static let persistentFlags = DatabaseOptions([
    .reverseKey, .duplicateSort, .integerKey, .duplicateFixed, .integerDuplicate, .reverseDuplicate,
  ]).rawValue
}
