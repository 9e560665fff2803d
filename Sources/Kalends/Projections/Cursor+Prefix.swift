internal import LMDB

extension Cursor {
  /// Every key of the cursor's database that starts with `prefix`, in key order.
  mutating func keys(withPrefix prefix: [UInt8]) throws -> [[UInt8]] {
    var keys: [[UInt8]] = []
    guard try seek(atLeast: prefix) else { return keys }
    _ = try scanForward { key, _ in
      let bytes = Array(copying: key)
      guard bytes.starts(with: prefix) else { return .stop }
      keys.append(bytes)
      return .continue
    }
    return keys
  }
}
