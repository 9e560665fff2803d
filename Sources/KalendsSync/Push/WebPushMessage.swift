/// A Web Push message body encrypted for one subscription (RFC 8291, with the `aes128gcm` content
/// coding of RFC 8188): the only form in which a push leaves the store, so the push service that
/// carries it learns nothing of what it says.
package enum WebPushMessage {
  /// The largest plaintext one message carries: a body of 4,096 bytes (what RFC 8030 §7.2 asks
  /// every push service to take) less its header (86 bytes), the record's delimiter and its tag.
  package static let maximumPlaintext = 4096 - 86 - 17

  /// Why a message cannot be made for a subscription.
  package enum Failure: Error, Equatable, Sendable {
    /// The subscription's `p256dh` key is not a P-256 point in uncompressed form.
    case invalidPublicKey
    /// Its authentication secret is not 16 bytes.
    case invalidAuthSecret
    /// The plaintext is longer than ``maximumPlaintext``.
    case tooLong(Int)
  }

  /// `plaintext` encrypted for the user agent whose public key is `p256dh` and whose
  /// authentication secret is `auth` (both as the subscription gives them, decoded): the header
  /// (salt, record size, the sender's public key) and one record. The sender's key and `salt` are
  /// new for every message unless given (tests give them to compare with a known answer).
  package static func encrypt(
    _ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8], sender: P256Key? = nil, salt: [UInt8] = randomSalt()
  ) throws(Failure) -> [UInt8] {
    guard auth.count == 16 else { throw .invalidAuthSecret }
    guard plaintext.count <= maximumPlaintext else { throw .tooLong(plaintext.count) }
    guard p256dh.count == 65, p256dh[0] == 4 else { throw .invalidPublicKey }
    if let sender {
      guard let secret = sender.sharedSecret(with: p256dh) else { throw .invalidPublicKey }
      return seal(plaintext, p256dh: p256dh, auth: auth, sender: sender.publicKey, shared: secret, salt: salt)
    }
    guard let peer = P256PublicKey(p256dh) else { throw .invalidPublicKey }
    return try encrypt(plaintext, to: peer, p256dh: p256dh, auth: auth, salt: salt)
  }

  /// ``encrypt(_:p256dh:auth:sender:salt:)`` with the user agent's key decoded once (`peer`, of
  /// the point `p256dh`), as a delivery sending many messages to one subscription does.
  package static func encrypt(
    _ plaintext: [UInt8], to peer: P256PublicKey, p256dh: [UInt8], auth: [UInt8], salt: [UInt8] = randomSalt()
  ) throws(Failure) -> [UInt8] {
    guard auth.count == 16 else { throw .invalidAuthSecret }
    guard plaintext.count <= maximumPlaintext else { throw .tooLong(plaintext.count) }
    guard let (senderPublic, shared) = peer.ephemeralSharedSecret() else { throw .invalidPublicKey }
    return seal(plaintext, p256dh: p256dh, auth: auth, sender: senderPublic, shared: shared, salt: salt)
  }

  /// The message of `plaintext` under the ECDH secret `shared` of the sender's key (`sender`, its
  /// public point) and the user agent's (`p256dh`).
  private static func seal(
    _ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8], sender senderPublic: [UInt8], shared: [UInt8],
    salt: [UInt8]
  ) -> [UInt8] {
    // RFC 8291 §3.4: the input keying material from the ECDH secret and the auth secret, then
    // RFC 8188 §2.2-2.3: the content-encryption key and the nonce from it and the salt.
    let keyInfo = Array("WebPush: info".utf8) + [0] + p256dh + senderPublic
    let ikm = WebPushPrimitive.hmac(WebPushPrimitive.hmac(auth, shared), keyInfo + [1])
    let prk = WebPushPrimitive.hmac(salt, ikm)
    let key = Array(WebPushPrimitive.hmac(prk, Array("Content-Encoding: aes128gcm".utf8) + [0, 1]).prefix(16))
    let nonce = Array(WebPushPrimitive.hmac(prk, Array("Content-Encoding: nonce".utf8) + [0, 1]).prefix(12))
    // One record, the last: the plaintext and the delimiter 0x02, no padding.
    let record = WebPushPrimitive.seal(plaintext + [2], key: key, nonce: nonce)
    let recordSize: UInt32 = 4096
    let header =
      salt + withUnsafeBytes(of: recordSize.bigEndian) { Array($0) } + [UInt8(senderPublic.count)] + senderPublic
    return header + record
  }

  /// 16 random bytes.
  package static func randomSalt() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    let (high, low) = (generator.next() as UInt64, generator.next() as UInt64)
    return withUnsafeBytes(of: (high, low)) { Array($0) }
  }
}
