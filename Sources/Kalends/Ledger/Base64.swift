internal import Foundation

/// Standard base64 (RFC 4648 §4), as the signed-note formats use it.
enum Base64 {
  static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

  /// The bytes, or `nil` unless `text` is canonical base64: padding bits zero and padding present,
  /// so that each byte string has exactly one text and no altered character goes unnoticed.
  static func decode(_ text: String) -> [UInt8]? {
    guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else { return nil }
    return Array(data)
  }
}
