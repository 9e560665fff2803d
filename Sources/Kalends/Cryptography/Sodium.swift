internal import CSodium

/// Kalends' boundary to libsodium: Ed25519 for signed notes, and the keyed hash and authenticated
/// encryption that seal what the server shows apps of the log's positions. libsodium is initialised
/// once, before the first call; every function here is safe to call from any thread.
package enum Sodium {
  /// `sodium_init()`, once: it picks the fastest implementations and seeds the generator. It can
  /// fail only when the system's random source cannot be opened, and then nothing here is safe.
  private static let initialized: Bool = sodium_init() >= 0

  private static func ready() {
    precondition(initialized, "libsodium could not be initialised: the system has no random source")
  }

  /// The length of an Ed25519 seed, a public key, and a signature.
  package static let seedLength = 32
  package static let publicKeyLength = 32
  package static let signatureLength = 64

  /// `count` bytes from the system's cryptographic generator.
  package static func randomBytes(_ count: Int) -> [UInt8] {
    ready()
    var bytes = [UInt8](repeating: 0, count: count)
    randombytes_buf(&bytes, count)
    return bytes
  }

  /// The Ed25519 key pair of a 32-byte seed: libsodium's 64-byte secret key (seed ‖ public key)
  /// and the 32-byte public key; `nil` for a seed of another length.
  package static func ed25519KeyPair(seed: [UInt8]) -> (secretKey: [UInt8], publicKey: [UInt8])? {
    guard seed.count == seedLength else { return nil }
    ready()
    var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
    var publicKey = [UInt8](repeating: 0, count: publicKeyLength)
    let status = crypto_sign_seed_keypair(&publicKey, &secretKey, seed)
    return status == 0 ? (secretKey, publicKey) : nil
  }

  /// The Ed25519 signature of `message` by `secretKey` (from ``ed25519KeyPair(seed:)``).
  package static func ed25519Sign(_ message: [UInt8], secretKey: [UInt8]) -> [UInt8] {
    precondition(secretKey.count == Int(crypto_sign_SECRETKEYBYTES), "an Ed25519 secret key is 64 bytes")
    ready()
    var signature = [UInt8](repeating: 0, count: signatureLength)
    _ = crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey)
    return signature
  }

  /// Whether `signature` is `publicKey`'s Ed25519 signature of `message` (RFC 8032, with
  /// canonical encodings required and small-order keys refused, as libsodium checks).
  package static func ed25519Verify(_ signature: some Collection<UInt8>, of message: [UInt8], publicKey: [UInt8])
    -> Bool
  {
    guard signature.count == signatureLength, publicKey.count == publicKeyLength else { return false }
    ready()
    let signature = Array(signature)
    return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
  }

  /// The key length of ``keyedHash(_:key:length:)`` and of ``seal(_:key:)``.
  package static let keyLength = 32

  /// BLAKE2b of `message` keyed by `key` (32 bytes), `length` bytes long (16 to 64): a
  /// pseudorandom function, for tags and derived keys.
  package static func keyedHash(_ message: [UInt8], key: [UInt8], length: Int = 32) -> [UInt8] {
    precondition(
      key.count == keyLength && (16...64).contains(length), "BLAKE2b takes a 32-byte key, 16 to 64 bytes out")
    ready()
    var out = [UInt8](repeating: 0, count: length)
    _ = crypto_generichash(&out, length, message, UInt64(message.count), key, key.count)
    return out
  }

  /// How many bytes ``seal(_:key:)`` adds to a message: a random 24-byte nonce and a 16-byte tag.
  package static let sealOverhead = Int(
    crypto_aead_xchacha20poly1305_ietf_NPUBBYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES)

  /// `message` encrypted and authenticated under `key` (XChaCha20-Poly1305, a random nonce):
  /// sealing the same message twice gives unrelated bytes.
  package static func seal(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
    precondition(key.count == keyLength, "XChaCha20-Poly1305 takes a 32-byte key")
    var nonce = randomBytes(Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES))
    var cipher = [UInt8](repeating: 0, count: message.count + Int(crypto_aead_xchacha20poly1305_ietf_ABYTES))
    var length: UInt64 = 0
    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
      &cipher, &length, message, UInt64(message.count), nil, 0, nil, &nonce, key)
    return nonce + cipher
  }

  /// The message ``seal(_:key:)`` sealed under `key`; `nil` when `sealed` was not sealed under it
  /// or was altered.
  package static func open(_ sealed: [UInt8], key: [UInt8]) -> [UInt8]? {
    precondition(key.count == keyLength, "XChaCha20-Poly1305 takes a 32-byte key")
    guard sealed.count >= sealOverhead else { return nil }
    ready()
    let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    let nonce = Array(sealed[..<nonceLength])
    let cipher = Array(sealed[nonceLength...])
    var message = [UInt8](repeating: 0, count: cipher.count - Int(crypto_aead_xchacha20poly1305_ietf_ABYTES))
    var length: UInt64 = 0
    let status = crypto_aead_xchacha20poly1305_ietf_decrypt(
      &message, &length, nil, cipher, UInt64(cipher.count), nil, 0, nonce, key)
    return status == 0 ? message : nil
  }
}
