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

  /// Scans the log of `store` after `position` up to the head, in `txn`: `items` says which items a
  /// record changed that the sync may tell of (none: empty), `name` the name of each (each item is
  /// named once). With `limit`, stops before the record that would add names beyond it, so that the
  /// next step skips nothing; only a first record that alone names more than `limit` items is taken
  /// whole, so that every step moves on.
  ///
  /// - Throws: ``CalendarError/changesUnavailable(after:)`` for a position beyond the head.
  init(
    after position: LogPosition, limit: Int?, store: Store, in txn: borrowing ReadTransaction,
    items: (LogRecordHeader, RawSpan) throws -> [ObjectID], name: (ObjectID) throws -> String
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
        let ids = try items(header, value.extracting(decoded.payload))
        var names: [String] = []
        for changed in ids where !touched.contains(changed) {
          let name = try name(changed)
          if !named.contains(name), !names.contains(name) { names.append(name) }
        }
        if !names.isEmpty {
          if let limit, !found.names.isEmpty, found.names.count + names.count > limit {
            found.isTruncated = true
            return .stop
          }
          named.formUnion(names)
          found.names += names
        }
        touched.formUnion(ids)
        found.position = header.position
        return header.position < head ? .continue : .stop
      }
    }
    self = found
  }

  /// ``init(after:limit:store:in:items:name:)`` for records that change at most one item each.
  init(
    after position: LogPosition, limit: Int?, store: Store, in txn: borrowing ReadTransaction,
    item: (LogRecordHeader, RawSpan) throws -> ObjectID?, name: (ObjectID) throws -> String
  ) throws {
    try self.init(
      after: position, limit: limit, store: store, in: txn, items: { try item($0, $1).map { [$0] } ?? [] }, name: name)
  }
}
