internal import LMDB

/// The identifiers whose 32 hex digits begin with a prefix, in a projection database keyed
/// `type (1) ‖ id (16)` (`objects`, `contacts`): one range of keys, read from where the prefix
/// starts, never a scan of the type.
package enum IDPrefixScan {
  /// The ids of `type` in `database` (live or removed) whose hex digits begin with `nibbles` (each
  /// 0…15), in key order.
  static func ids(
    _ type: UInt8, beginningWith nibbles: [UInt8], in database: Database, _ txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    guard nibbles.count <= 32, nibbles.allSatisfy({ $0 < 16 }) else { return [] }
    var start = [type]
    for index in stride(from: 0, to: nibbles.count, by: 2) {
      start.append(nibbles[index] << 4 | (index + 1 < nibbles.count ? nibbles[index + 1] : 0))
    }
    func matches(_ key: RawSpan) -> Bool {
      key.byteCount == 17 && key.unsafeLoad(fromByteOffset: 0, as: UInt8.self) == type
        && nibbles.indices.allSatisfy { index in
          let byte = key.unsafeLoad(fromByteOffset: 1 + index / 2, as: UInt8.self)
          return (index % 2 == 0 ? byte >> 4 : byte & 0x0F) == nibbles[index]
        }
    }
    var found: [ObjectID] = []
    try txn.withCursor(on: database) { cursor in
      guard try cursor.seek(atLeast: start) else { return }
      try cursor.scanForward { key, _ in
        guard matches(key) else { return .stop }
        found.append(key.withUnsafeBytes { ObjectID(bytes: $0[1...])! })
        return .continue
      }
    }
    return found
  }

  /// The hex digits of `prefix` as nibbles, without dashes; `nil` for fewer than four, more than
  /// 32, or anything else than hex digits and dashes.
  package static func nibbles(_ prefix: String) -> [UInt8]? {
    var nibbles: [UInt8] = []
    for byte in prefix.utf8 where byte != UInt8(ascii: "-") {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
    }
    return (4...32).contains(nibbles.count) ? nibbles : nil
  }
}
