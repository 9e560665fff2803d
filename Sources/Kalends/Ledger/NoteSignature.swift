/// One signature line of a signed note: `— name base64(keyID ‖ signature)`.
public struct NoteSignature: Hashable, Sendable {
  /// The signing key's name.
  public let name: String
  /// The four key-ID bytes followed by the signature.
  public let bytes: [UInt8]

  /// The key ID the signature names.
  public var keyID: UInt32? { bytes.count >= 4 ? bytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) } : nil }

  /// The line, with its final newline.
  var line: String { "\u{2014} \(name) \(Base64.encode(bytes))\n" }
}
