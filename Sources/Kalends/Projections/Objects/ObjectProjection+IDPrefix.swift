internal import LMDB

extension ObjectProjection {
  /// The identifiers of the objects of `kind` (live or removed) whose 32 hex digits begin with
  /// `nibbles` (each 0…15), in key order, at most `limit`: one range of `objects` keys, read from
  /// where the prefix starts, never a scan of the kind.
  func ids(
    _ kind: ObjectKind, beginningWith nibbles: [UInt8], limit: Int, in txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    guard nibbles.count <= 32, nibbles.allSatisfy({ $0 < 16 }) else { return [] }
    var start = [kind.rawValue]
    for index in stride(from: 0, to: nibbles.count, by: 2) {
      start.append(nibbles[index] << 4 | (index + 1 < nibbles.count ? nibbles[index + 1] : 0))
    }
    func matches(_ key: RawSpan) -> Bool {
      key.byteCount == 17 && key.unsafeLoad(fromByteOffset: 0, as: UInt8.self) == kind.rawValue
        && nibbles.indices.allSatisfy { index in
          let byte = key.unsafeLoad(fromByteOffset: 1 + index / 2, as: UInt8.self)
          return (index % 2 == 0 ? byte >> 4 : byte & 0x0F) == nibbles[index]
        }
    }
    var found: [ObjectID] = []
    try txn.withCursor(on: objects) { cursor in
      guard try cursor.seek(atLeast: start) else { return }
      try cursor.scanForward { key, _ in
        guard matches(key), found.count < limit else { return .stop }
        found.append(key.withUnsafeBytes { ObjectID(bytes: $0[1...])! })
        return .continue
      }
    }
    return found
  }
}
