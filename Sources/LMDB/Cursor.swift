internal import CLMDB

/// Whether a scan goes on to the next entry.
package enum ScanDecision: Sendable {
  /// Visit the next entry.
  case `continue`
  /// End the scan here.
  case stop
}

/// A position in a database's sorted keys, lent to the closure of a transaction's `withCursor`.
///
/// Positioning methods return `false` when there is no such entry, leaving the cursor unpositioned.
/// Bytes are lent only inside the closures that receive them.
package struct Cursor: ~Copyable {
  let handle: OpaquePointer
  let transaction: OpaquePointer
  let dbi: MDB_dbi
  private var isPositioned = false

  init(handle: OpaquePointer, transaction: OpaquePointer, dbi: MDB_dbi) {
    self.handle = handle
    self.transaction = transaction
    self.dbi = dbi
  }

  @inline(__always)
  private mutating func move(_ op: MDB_cursor_op) throws(LMDBError) -> Bool {
    var key = MDB_val()
    var value = MDB_val()
    return try positioned(by: mdb_cursor_get(handle, &key, &value, op))
  }

  /// Notes whether the cursor operation that returned `rc` left the cursor on an entry: `false`
  /// for `MDB_NOTFOUND`, `true` on success; throws any other failure.
  @inline(__always)
  private mutating func positioned(by rc: Int32) throws(LMDBError) -> Bool {
    if rc == MDB_NOTFOUND {
      isPositioned = false
      return false
    }
    try MDBValue.check(rc)
    isPositioned = true
    return true
  }

  /// Stores `value` under `key` through this cursor (a cursor of a write transaction) and leaves
  /// it on the new entry. With ``PutOptions/append``, a run of puts in key order fills pages one
  /// after the other without searching the tree for each.
  package mutating func put(
    _ value: some LMDBBytes, forKey key: some LMDBBytes, options: PutOptions = []
  ) throws(LMDBError) {
    let handle = self.handle
    let rc = key.withLMDBBytes { key in
      value.withLMDBBytes { value in
        MDBValue.with(key) { key in
          MDBValue.with(value) { value in mdb_cursor_put(handle, &key, &value, options.rawValue) }
        }
      }
    }
    try MDBValue.check(rc)
    isPositioned = true
  }

  /// Stores a value of `count` bytes under `key`, written in place by `fill` (`MDB_RESERVE`): the
  /// bytes go straight into the page rather than being copied from a buffer built for them. `fill`
  /// must write all `count` bytes and may not use the transaction; it is not called when the put
  /// fails.
  package mutating func put(
    reserving count: Int, forKey key: some LMDBBytes, options: PutOptions = [],
    _ fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(LMDBError) {
    let handle = self.handle
    var value = MDB_val(mv_size: count, mv_data: nil)
    let rc = key.withLMDBBytes { key in
      MDBValue.with(key) { key in mdb_cursor_put(handle, &key, &value, options.rawValue | UInt32(MDB_RESERVE)) }
    }
    try MDBValue.check(rc)
    isPositioned = true
    fill(UnsafeMutableRawBufferPointer(start: value.mv_data, count: count))
  }

  /// Moves to the first entry.
  package mutating func first() throws(LMDBError) -> Bool { try move(MDB_FIRST) }

  /// Moves to the last entry.
  package mutating func last() throws(LMDBError) -> Bool { try move(MDB_LAST) }

  /// Moves to the next entry; from an unpositioned cursor, to the first.
  package mutating func next() throws(LMDBError) -> Bool { try move(isPositioned ? MDB_NEXT : MDB_FIRST) }

  /// Moves to the previous entry; from an unpositioned cursor, to the last.
  package mutating func previous() throws(LMDBError) -> Bool { try move(isPositioned ? MDB_PREV : MDB_LAST) }

  /// Moves to the first entry whose key is greater than or equal to `key` (`MDB_SET_RANGE`).
  package mutating func seek(atLeast key: some LMDBBytes) throws(LMDBError) -> Bool {
    try seek(key, MDB_SET_RANGE)
  }

  /// Moves to the entry whose key equals `key` (`MDB_SET_KEY`).
  package mutating func seek(exactly key: some LMDBBytes) throws(LMDBError) -> Bool {
    try seek(key, MDB_SET_KEY)
  }

  /// Positions the cursor with the seek `operation` on `key`; `false` (unpositioned) when no entry
  /// qualifies.
  private mutating func seek(_ key: some LMDBBytes, _ operation: MDB_cursor_op) throws(LMDBError) -> Bool {
    let handle = self.handle
    var value = MDB_val()
    let rc = key.withLMDBBytes { key in
      MDBValue.with(key) { key in mdb_cursor_get(handle, &key, &value, operation) }
    }
    return try positioned(by: rc)
  }

  /// Moves to the last entry whose key is less than or equal to `key`.
  package mutating func seek(atMost key: some LMDBBytes) throws(LMDBError) -> Bool {
    let (handle, transaction, dbi) = (self.handle, self.transaction, self.dbi)
    var found = MDB_val()
    var value = MDB_val()
    var comparison: Int32 = 0
    let rc = key.withLMDBBytes { key in
      MDBValue.with(key) { key in
        found = key
        let rc = mdb_cursor_get(handle, &found, &value, MDB_SET_RANGE)
        if rc == 0 { comparison = mdb_cmp(transaction, dbi, &found, &key) }
        return rc
      }
    }
    switch rc {
    case 0 where comparison == 0:
      isPositioned = true
      return true
    case 0:
      return try move(MDB_PREV)
    case MDB_NOTFOUND:
      return try move(MDB_LAST)
    default:
      throw LMDBError(code: rc)
    }
  }

  /// Calls `body` with the key and value at the cursor. Throws ``LMDBError/notFound`` when unpositioned.
  package func withCurrent<R>(_ body: (_ key: RawSpan, _ value: RawSpan) throws -> R) throws -> R {
    guard isPositioned else { throw LMDBError.notFound }
    var key = MDB_val()
    var value = MDB_val()
    try MDBValue.check(mdb_cursor_get(handle, &key, &value, MDB_GET_CURRENT))
    return try MDBValue.lend(key) { key in try MDBValue.lend(value) { value in try body(key, value) } }
  }

  /// A copy of the key at the cursor.
  package func currentKey() throws -> [UInt8] {
    try withCurrent { key, _ in Array(copying: key) }
  }

  /// A copy of the value at the cursor.
  package func currentValue() throws -> [UInt8] {
    try withCurrent { _, value in Array(copying: value) }
  }

  /// Visits entries in key order from the current position (the first entry when unpositioned)
  /// until `body` says ``ScanDecision/stop`` or the keys run out. Returns how many were visited.
  @discardableResult
  package mutating func scanForward(
    _ body: (_ key: RawSpan, _ value: RawSpan) throws -> ScanDecision
  ) throws -> Int {
    try scan(start: isPositioned ? MDB_GET_CURRENT : MDB_FIRST, step: MDB_NEXT, body)
  }

  /// Visits entries in reverse key order from the current position (the last entry when
  /// unpositioned) until `body` says ``ScanDecision/stop`` or the keys run out.
  @discardableResult
  package mutating func scanBackward(
    _ body: (_ key: RawSpan, _ value: RawSpan) throws -> ScanDecision
  ) throws -> Int {
    try scan(start: isPositioned ? MDB_GET_CURRENT : MDB_LAST, step: MDB_PREV, body)
  }

  private mutating func scan(
    start: MDB_cursor_op, step: MDB_cursor_op, _ body: (RawSpan, RawSpan) throws -> ScanDecision
  ) throws -> Int {
    var key = MDB_val()
    var value = MDB_val()
    var op = start
    var visited = 0
    while true {
      guard try positioned(by: mdb_cursor_get(handle, &key, &value, op)) else { return visited }
      visited += 1
      let decision = try MDBValue.lend(key) { key in try MDBValue.lend(value) { value in try body(key, value) } }
      if decision == .stop { return visited }
      op = step
    }
  }

  /// The number of values under the current key in a duplicate-sorted database.
  package func duplicateCount() throws(LMDBError) -> Int {
    var count = 0
    try MDBValue.check(mdb_cursor_count(handle, &count))
    return count
  }
}
