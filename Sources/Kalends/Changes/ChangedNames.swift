internal import LMDB

/// The resources a sync must tell of after a position of the log (RFC 6578's `sync-collection`):
/// the names of what changed since, in the order of their first change, read from the records after
/// the position in one snapshot — the cost follows the records since, not the collection.
struct ChangedNames {
  /// The distinct names, in the order of their first change.
  var names: [String] = []
  /// The position the answer is complete up to.
  var position: LogPosition
  /// Whether the limit stopped the scan before a record that would have exceeded it.
  var isTruncated = false

  /// Scans the log of `store` after `position` up to the head, in `txn`: `item` says which item a
  /// record changed that the sync may tell of (`nil`: none), `name` its name (each item is named
  /// once). With `limit`, stops before the record that would add a name beyond it, so that the next
  /// step skips nothing.
  ///
  /// - Throws: ``CalendarError/changesUnavailable(after:)`` for a position beyond the head.
  init(
    after position: LogPosition, limit: Int?, store: Store, in txn: borrowing ReadTransaction,
    item: (LogRecordHeader, RawSpan) throws -> ObjectID?, name: (ObjectID) throws -> String
  ) throws {
    let head = try Store.loadHead(meta: store.meta, in: txn).position
    guard position <= head else { throw StoreError.calendar(.changesUnavailable(after: position)) }
    self.position = position
    guard position < head else { return }
    var named: Set<String> = []
    var touched: Set<ObjectID> = []
    var found = self
    try txn.withCursor(on: store.log) { cursor in
      guard try cursor.seek(atLeast: BigEndianKey(position.next.rawValue)) else { return }
      var principals = PrincipalCache()
      try cursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        let header = decoded.header
        if let changed = try item(header, value.extracting(decoded.payload)), touched.insert(changed).inserted {
          let name = try name(changed)
          if !named.contains(name) {
            if let limit, found.names.count >= limit {
              found.isTruncated = true
              return .stop
            }
            named.insert(name)
            found.names.append(name)
          }
        }
        found.position = header.position
        return header.position < head ? .continue : .stop
      }
    }
    self = found
  }
}
