internal import LMDB

extension Store {
  /// The stored bytes of the records from `position` up to `end` (inclusive), in order, read in one
  /// snapshot: exactly what the log holds, which a mirror of the store receives and checks with a
  /// `LogWalk` of its own. Fewer when the log ends before `end`.
  package func recordBytes(from position: LogPosition, through end: LogPosition) throws(StoreError) -> [[UInt8]] {
    guard position <= end, position.rawValue > 0 else { return [] }
    return try StoreError.wrapping {
      try environment.read { txn in
        var records: [[UInt8]] = []
        try txn.withCursor(on: log) { cursor in
          guard try cursor.seek(atLeast: BigEndianKey(position.rawValue)) else { return }
          _ = try cursor.scanForward { key, value in
            guard let number = BigEndianKey<UInt64>(key)?.value, number <= end.rawValue else { return .stop }
            records.append(Array(copying: value))
            return number < end.rawValue ? .continue : .stop
          }
        }
        return records
      }
    }
  }
}
