internal import Foundation

/// One app's view of the log's positions (``PositionSeal``).
package struct AppPositions: Sendable {
  /// The keys of its tags and of its tokens, derived by ``PositionSeal/view(for:)``.
  let tagKey: [UInt8]
  let tokenKey: [UInt8]

  /// The length of a tag's text: 16 bytes in base64url without padding.
  package static let tagLength = 22
  /// The length of a token's text: nonce, 8 bytes and authentication tag, in base64url.
  package static let tokenLength = 64

  /// The entity tag of `version`, without quotes.
  package func tag(_ version: LogPosition) -> String {
    Self.base64URL(Sodium.keyedHash(Self.bytes(version), key: tagKey, length: 16))
  }

  /// A new token for `position`.
  package func token(_ position: LogPosition) -> String {
    Self.base64URL(Sodium.seal(Self.bytes(position), key: tokenKey))
  }

  /// The position `token` stands for; `nil` unless this app was given it.
  package func position(of token: String) -> LogPosition? {
    guard token.utf8.count == Self.tokenLength, let sealed = Self.bytes(base64URL: token),
      let bytes = Sodium.open(sealed, key: tokenKey), bytes.count == 8
    else { return nil }
    return LogPosition(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
  }

  private static func bytes(_ position: LogPosition) -> [UInt8] {
    withUnsafeBytes(of: position.rawValue.bigEndian) { Array($0) }
  }

  /// Base64url without padding (RFC 4648 §5): safe in headers, quotes and URLs.
  static func base64URL(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var group = UInt32(bytes[index]) << 16
      if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { group |= UInt32(bytes[index + 2]) }
      for slot in 0...count { out.append(alphabet[Int(group >> UInt32(18 - 6 * slot) & 0x3F)]) }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of base64url text without padding; `nil` unless it is that, canonically.
  static func bytes(base64URL text: String) -> [UInt8]? {
    guard text.utf8.allSatisfy({ isBase64URL($0) }) else { return nil }
    var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    guard let data = Data(base64Encoded: standard), base64URL(Array(data)) == text else { return nil }
    return Array(data)
  }

  /// Whether `byte` is a character of base64url.
  package static func isBase64URL(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
