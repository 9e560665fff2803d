extension Cursor {
  /// Every key of the cursor's database that starts with `prefix`, in key order.
  package mutating func keys(withPrefix prefix: [UInt8]) throws -> [[UInt8]] {
    var keys: [[UInt8]] = []
    try forEach(withPrefix: prefix) { key, _ in keys.append(key) }
    return keys
  }

  /// Calls `body` with every entry whose key starts with `prefix`, in key order: a copy of the
  /// key, and the value (valid only inside `body`). An empty prefix is every entry.
  package mutating func forEach(withPrefix prefix: [UInt8], _ body: ([UInt8], RawSpan) throws -> Void) throws {
    guard try prefix.isEmpty ? first() : seek(atLeast: prefix) else { return }
    _ = try scanForward { key, value in
      let bytes = Array(copying: key)
      guard bytes.starts(with: prefix) else { return .stop }
      try body(bytes, value)
      return .continue
    }
  }
}
