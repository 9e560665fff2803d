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
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
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
