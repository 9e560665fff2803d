/// The public half of a signed-note key (C2SP signed-note, Ed25519): who signs, and how to check
/// it. Its text form is the standard verifier key `name+hex(keyID)+base64(type ‖ public key)`,
/// which auditors and witnesses configure: type `0x01` for a log's signatures, `0x04` for a
/// witness's timestamped cosignatures (C2SP tlog-cosignature).
public struct NoteVerifier: Hashable, Sendable, CustomStringConvertible {
  /// The key's name, as in signature lines.
  public let name: String
  /// The key ID: the first four bytes of `SHA-256(name ‖ 0x0A ‖ type ‖ public key)`.
  public let keyID: UInt32
  /// The 32-byte Ed25519 public key.
  public let publicKey: [UInt8]
  /// Whether the key makes timestamped cosignatures (type `0x04`) rather than plain signatures.
  public let isCosigner: Bool

  /// The signature type of Ed25519 signed notes.
  static let ed25519: UInt8 = 0x01
  /// The signature type of Ed25519 timestamped cosignatures.
  static let cosignature: UInt8 = 0x04

  /// The type byte of this key.
  var type: UInt8 { isCosigner ? Self.cosignature : Self.ed25519 }

  init(name: String, publicKey: [UInt8], isCosigner: Bool = false) {
    self.name = name
    self.publicKey = publicKey
    self.isCosigner = isCosigner
    keyID = Self.keyID(name: name, type: isCosigner ? Self.cosignature : Self.ed25519, publicKey: publicKey)
  }

  /// Parses a verifier key `name+hex(keyID)+base64(0x01 ‖ public key)`; throws
  /// ``NoteError/malformed(_:)`` unless it is one, with a key ID that matches its key.
  public init(_ text: String) throws(NoteError) {
    let parts = text.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let name = Optional(String(parts[0])), Self.isValidName(name) else {
      throw .malformed("a verifier key is NAME+KEYID+KEY")
    }
    guard parts[1].utf8.count == 8, let id = UInt32(parts[1], radix: 16) else {
      throw .malformed("the key ID of \(name) is not 8 hexadecimal digits")
    }
    guard let key = Base64.decode(String(parts[2])), key.count == 33,
      key.first == Self.ed25519 || key.first == Self.cosignature
    else {
      throw .malformed("the key of \(name) is not an Ed25519 key (base64 of 0x01 or 0x04 and 32 bytes)")
    }
    self.init(name: name, publicKey: Array(key.dropFirst()), isCosigner: key.first == Self.cosignature)
    guard keyID == id else { throw .malformed("the key ID of \(name) does not match its key") }
  }

  /// The verifier key text.
  public var description: String {
    "\(name)+\(Self.hex(keyID))+\(Base64.encode([type] + publicKey))"
  }

  /// Whether `signature` (the bytes after the key ID) is this key's signature of the note text
  /// `text`: Ed25519 over the text, or for a cosigner a timestamp (8 bytes, big-endian) and Ed25519
  /// over `cosignature/v1\ntime T\n` and the text.
  func verifies(_ signature: [UInt8], of text: [UInt8]) -> Bool {
    guard isCosigner else { return Sodium.ed25519Verify(signature, of: text, publicKey: publicKey) }
    guard signature.count == 72 else { return false }
    let time = signature[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard time < 1 << 63 else { return false }
    return Sodium.ed25519Verify(signature[8...], of: Self.cosignedMessage(text, time: time), publicKey: publicKey)
  }

  /// What a cosigner signs: `cosignature/v1\ntime T\n` and the checkpoint's text.
  static func cosignedMessage(_ text: [UInt8], time: UInt64) -> [UInt8] {
    Array("cosignature/v1\ntime \(time)\n".utf8) + text
  }

  static func keyID(name: String, type: UInt8, publicKey: [UInt8]) -> UInt32 {
    let input = Array(name.utf8) + [0x0A, type] + publicKey
    let digest = input.withUnsafeBytes { Array(SHA256.hash(data: $0)) }
    return digest[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// Key names are non-empty and hold no spaces and no `+` (C2SP signed-note).
  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && !name.unicodeScalars.contains { $0 == "+" || $0.properties.isWhitespace || $0.value < 0x20 }
  }

  static func hex(_ id: UInt32) -> String {
    let digits = String(id, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }
}
