/// A store's random identity (a version 4 UUID), fixed when it is created.
public struct StoreID: Hashable, Sendable, CustomStringConvertible {
  /// The 16 bytes.
  public let bytes: [UInt8]

  /// Wraps 16 bytes; `nil` for any other count.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    self.bytes = bytes
  }

  /// A new random identity.
  public static func random() -> StoreID {
    // Two words from the system's generator: one `getrandom` call each, where a byte at a time
    // made sixteen (a fifth of the time of saving events in bulk).
    var generator = SystemRandomNumberGenerator()
    let words = (generator.next(), generator.next())
    var bytes = withUnsafeBytes(of: words) { Array($0) }
    bytes[6] = bytes[6] & 0x0f | 0x40
    bytes[8] = bytes[8] & 0x3f | 0x80
    return StoreID(bytes: bytes)!
  }

  /// The canonical UUID text, e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
  public var description: String {
    let hex = Hex.encode(bytes)
    let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      String(hex.utf8.dropFirst(range.lowerBound).prefix(range.count))!
    }
    return parts.joined(separator: "-")
  }
}

extension StoreID: Comparable {
  /// Byte by byte: the order of the canonical texts (lower-case hexadecimal keeps it), without
  /// writing them.
  public static func < (a: StoreID, b: StoreID) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}
