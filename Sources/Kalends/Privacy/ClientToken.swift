/// A credential the person created for an app that reaches the store server over TCP, where the
/// kernel cannot say which process is calling (``PrivacySettings/createToken(for:label:)``).
///
/// The secret is shown once, when the token is created, and never stored: the log and the store
/// keep its SHA-256 (a 256-bit random secret needs no slow hash) and the token's ``id``, the first
/// 8 bytes of that digest in hex, by which the person lists and revokes it and the log names the
/// caller. Creation and revocation are recorded (`clientTokenCreated`, `clientTokenRevoked`).
public struct ClientToken: Hashable, Sendable {
  /// 16 lowercase hex digits: the first 8 bytes of the secret's SHA-256.
  public let id: String
  /// The app it identifies.
  public let client: String
  /// What the person called it (`laptop`, `ci`), if anything.
  public let label: String?
  /// The log position that created it.
  public let created: LogPosition

  /// The prefix of every secret: tells a reader of a configuration file what the string is.
  public static let secretPrefix = "kalends_"

  /// The SHA-256 of `secret`.
  static func digest(of secret: String) -> [UInt8] {
    var bytes = Array(secret.utf8)
    return bytes.withUnsafeMutableBytes { Array(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
  }

  /// The id a token with this secret has (whether or not it exists): how the server names a
  /// token it refused without keeping what was presented.
  public static func id(ofSecret secret: String) -> String { id(ofDigest: digest(of: secret)) }

  /// A token's id: the first 8 bytes of its secret's digest, in hex.
  static func id(ofDigest digest: [UInt8]) -> String {
    Hex.encode(digest.prefix(8))
  }

  /// A new secret: the prefix and 32 bytes from the system's generator, in base64url without padding.
  static func newSecret() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
    // base64url without padding (RFC 4648 §5): 43 characters.
    let text = Base64.encode(bytes).replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    return secretPrefix + text
  }
}
