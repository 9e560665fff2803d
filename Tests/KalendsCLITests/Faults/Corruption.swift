import KalendsTestSupport
import LMDB
import Testing

/// Flips one bit inside the payload of the record at `position`, through LMDB directly.
func corrupt(position: UInt64, in path: String) throws {
  let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
  let log = try environment.openDatabase(named: "log", options: [])
  try environment.write { txn in
    var value = try #require(try txn.value(forKey: BigEndianKey(position), in: log))
    value[value.count - 65] ^= 0x20  // the last payload byte, just before the two hashes
    try txn.put(value, forKey: BigEndianKey(position), in: log)
  }
}

/// Flips one bit in the first value of the projection database `name`, through LMDB directly: the
/// log stays intact, the projection no longer equals a rebuild of it.
func corruptProjection(_ name: String, in path: String) throws {
  let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
  let database = try environment.openDatabase(named: name, options: [])
  try environment.write { txn in
    let (key, value): ([UInt8], [UInt8]) = try #require(
      try txn.withCursor(on: database) { cursor in
        guard try cursor.first() else { return nil }
        return (try cursor.currentKey(), try cursor.currentValue())
      })
    var changed = value
    changed[changed.count - 1] ^= 0x01
    try txn.put(changed, forKey: key, in: database)
  }
}
