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
