internal import CWebPush

/// A NIST P-256 private key (its 32-byte scalar) and its public point (65 bytes, uncompressed):
/// the key of a Web Push message's sender (RFC 8291 §3.1) and the store's VAPID key (RFC 8292).
package struct P256Key: Sendable {
  /// The private scalar. Kept in the store's metadata for VAPID, never in the log.
  package let privateKey: [UInt8]
  /// `0x04 ‖ x ‖ y`.
  package let publicKey: [UInt8]

  /// A new random key.
  package init() {
    var privateKey = [UInt8](repeating: 0, count: 32)
    var publicKey = [UInt8](repeating: 0, count: 65)
    // Only a failure of the system's random source fails this: nothing can go on without one.
    precondition(cwebpush_p256_generate(&privateKey, &publicKey) == 1, "OpenSSL could not make a P-256 key")
    (self.privateKey, self.publicKey) = (privateKey, publicKey)
  }

  /// The key of the scalar `privateKey`; `nil` when it is not 32 bytes of a valid scalar.
  package init?(privateKey: [UInt8]) {
    guard privateKey.count == 32 else { return nil }
    var publicKey = [UInt8](repeating: 0, count: 65)
    guard cwebpush_p256_public(privateKey, &publicKey) == 1 else { return nil }
    (self.privateKey, self.publicKey) = (privateKey, publicKey)
  }

  /// The ECDH shared secret with `peer` (a public point); `nil` when `peer` is not a point of the
  /// curve.
  package func sharedSecret(with peer: [UInt8]) -> [UInt8]? {
    guard peer.count == 65 else { return nil }
    var secret = [UInt8](repeating: 0, count: 32)
    guard cwebpush_p256_ecdh(privateKey, peer, &secret) == 1 else { return nil }
    return secret
  }

  /// The ES256 signature of `message`: `r ‖ s`, as JWS writes it (RFC 7518 §3.4).
  package func signature(of message: [UInt8]) -> [UInt8] {
    var signature = [UInt8](repeating: 0, count: 64)
    precondition(
      cwebpush_p256_sign(privateKey, message, message.count, &signature) == 1, "OpenSSL could not sign with a P-256 key"
    )
    return signature
  }
}

/// A P-256 public key decoded once — a subscription's `p256dh` — for the ECDH of each message
/// encrypted to it.
///
/// `@unchecked Sendable`: the decoded key is never changed after `init`, and OpenSSL lets several
/// threads derive with one key at once.
package final class P256PublicKey: @unchecked Sendable {
  private let peer: OpaquePointer

  /// `point` decoded; `nil` when it is not a point of the curve in uncompressed form (65 bytes).
  package init?(_ point: [UInt8]) {
    guard point.count == 65, let peer = cwebpush_peer_new(point) else { return nil }
    self.peer = peer
  }

  deinit { cwebpush_peer_free(peer) }

  /// A new key's public point and its ECDH shared secret with this key, in one step (the new
  /// private scalar never leaves OpenSSL).
  func ephemeralSharedSecret() -> (publicKey: [UInt8], secret: [UInt8])? {
    var publicKey = [UInt8](repeating: 0, count: 65)
    var secret = [UInt8](repeating: 0, count: 32)
    guard cwebpush_p256_ephemeral_ecdh(peer, &publicKey, &secret) == 1 else { return nil }
    return (publicKey, secret)
  }
}

/// HMAC-SHA-256 and AES-128-GCM for the message encryption.
enum WebPushPrimitive {
  static func hmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
    var mac = [UInt8](repeating: 0, count: 32)
    precondition(cwebpush_hmac_sha256(key, key.count, message, message.count, &mac) == 1, "HMAC-SHA-256 failed")
    return mac
  }

  /// AES-128-GCM of `plaintext`: the ciphertext, then the 16-byte tag.
  static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
    var sealed = [UInt8](repeating: 0, count: plaintext.count + 16)
    precondition(
      cwebpush_aes128gcm_seal(key, nonce, plaintext, plaintext.count, &sealed) == 1, "AES-128-GCM failed")
    return sealed
  }
}
