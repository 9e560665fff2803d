/// A name as one segment of a URL's path: what the store's DAV names its members by, and what an
/// account's sync addresses the objects it sends by.
package enum PathSegment {
  /// `name` with every UTF-8 byte but the unreserved characters of RFC 3986 percent-encoded
  /// (`%2F`, upper-case hex digits).
  package static func percentEncoded(_ name: String) -> String {
    guard !name.utf8.allSatisfy(isUnreserved) else { return name }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count * 3)
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in name.utf8 {
      if isUnreserved(byte) {
        bytes.append(byte)
      } else {
        bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `byte` is an unreserved character of RFC 3986: `A-Z a-z 0-9 - . _ ~`.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: true
    default: false
    }
  }
}
