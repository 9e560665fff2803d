internal import Foundation

/// The private half of a signed-note key: it signs checkpoints of the log's tree (C2SP
/// signed-note, Ed25519). Kept outside the store — whoever can write the store must not be able to
/// sign for it. Its text form is `PRIVATE+KEY+name+hex(keyID)+base64(0x01 ‖ seed)`, as Go's
/// `golang.org/x/mod/sumdb/note` and the transparency tools built on it write it.
public struct CheckpointSigner: Hashable, Sendable {
  /// The key's public half.
  public let verifier: NoteVerifier
  /// The 32-byte seed, which the text form holds.
  private let seed: [UInt8]
  /// libsodium's secret key, derived once from the seed: deriving it costs a scalar
  /// multiplication, as much as a signature.
  private let secretKey: [UInt8]

  private init(name: String, seed: [UInt8], isCosigner: Bool) throws(NoteError) {
    guard NoteVerifier.isValidName(name) else {
      throw .malformed("a key name must be non-empty, without spaces or +: \(name)")
    }
    guard let pair = Sodium.ed25519KeyPair(seed: seed) else {
      throw .malformed("the private key of \(name) is not an Ed25519 seed")
    }
    self.seed = seed
    secretKey = pair.secretKey
    verifier = NoteVerifier(name: name, publicKey: pair.publicKey, isCosigner: isCosigner)
  }

  /// A new random key named `name` (a schema-less URL is recommended, such as the store's
  /// origin); a witness's key makes timestamped cosignatures (`isCosigner`).
  public static func generate(name: String, isCosigner: Bool = false) throws(NoteError) -> CheckpointSigner {
    try CheckpointSigner(
      name: name, seed: Sodium.randomBytes(Sodium.seedLength), isCosigner: isCosigner)
  }

  /// Parses a private key's text form; throws ``NoteError/malformed(_:)`` unless it is one whose
  /// key ID matches.
  public init(encoded text: String) throws(NoteError) {
    let parts = text.trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
    guard parts.count == 5, parts[0] == "PRIVATE", parts[1] == "KEY" else {
      throw .malformed("a private key is PRIVATE+KEY+NAME+KEYID+KEY")
    }
    guard let seed = Base64.decode(String(parts[4])), seed.count == 33,
      seed.first == NoteVerifier.ed25519 || seed.first == NoteVerifier.cosignature
    else { throw .malformed("the private key is not an Ed25519 key (base64 of 0x01 or 0x04 and 32 bytes)") }
    try self.init(
      name: String(parts[2]), seed: Array(seed.dropFirst()), isCosigner: seed.first == NoteVerifier.cosignature)
    guard NoteVerifier.hex(verifier.keyID) == parts[3] else {
      throw .malformed("the key ID of the private key does not match the key")
    }
  }

  /// The private key's text form, to be written to a file only its owner may read.
  public var encoded: String {
    "PRIVATE+KEY+\(verifier.name)+\(NoteVerifier.hex(verifier.keyID))+"
      + Base64.encode([verifier.type] + seed)
  }

  /// The signature of the note text `text`: the key ID and the Ed25519 signature, or for a
  /// cosigner the key ID, the time `now` in seconds and the signature of the cosigned message.
  package func signature(of text: [UInt8], now: Timestamp = .now()) -> NoteSignature {
    let id = withUnsafeBytes(of: verifier.keyID.bigEndian) { Array($0) }
    guard verifier.isCosigner else {
      return NoteSignature(name: verifier.name, bytes: id + Sodium.ed25519Sign(text, secretKey: secretKey))
    }
    let time = UInt64(max(0, now.rawValue / 1_000_000))
    let signature = Sodium.ed25519Sign(NoteVerifier.cosignedMessage(text, time: time), secretKey: secretKey)
    return NoteSignature(
      name: verifier.name, bytes: id + withUnsafeBytes(of: time.bigEndian) { Array($0) } + signature)
  }

  public static func == (lhs: CheckpointSigner, rhs: CheckpointSigner) -> Bool { lhs.verifier == rhs.verifier }
  public func hash(into hasher: inout Hasher) { hasher.combine(verifier) }
}
