internal import CLMDB

/// The bridge between Swift byte views and `MDB_val`. The only place raw pointers cross into LMDB.
enum MDBValue {
  /// Lends `bytes` to LMDB as an `MDB_val`. LMDB never writes through input values.
  @inline(__always)
  static func with<R>(_ bytes: RawSpan, _ body: (inout MDB_val) throws -> R) rethrows -> R {
    try bytes.withUnsafeBytes { buffer in
      var value = MDB_val(mv_size: buffer.count, mv_data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
      return try body(&value)
    }
  }

  /// Lends the bytes LMDB returned in `value` to `body`; they stay valid until the transaction changes.
  @inline(__always)
  static func lend<R>(_ value: MDB_val, _ body: (RawSpan) throws -> R) rethrows -> R {
    let buffer = UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
    return try body(RawSpan(_unsafeBytes: buffer))
  }

  /// Copies the bytes LMDB returned in `value`.
  @inline(__always)
  static func copy(_ value: MDB_val) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
  }

  @inline(__always)
  static func check(_ code: Int32) throws(LMDBError) {
    if code != 0 { throw LMDBError(code: code) }
  }
}
