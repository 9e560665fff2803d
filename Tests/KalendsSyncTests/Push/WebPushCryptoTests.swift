import Foundation
import KalendsTestSupport
import Testing

@testable import KalendsSync

/// Web Push message encryption (RFC 8291) and VAPID (RFC 8292) against independent code: PyPI's
/// `http_ece` decrypts what the store encrypts and, given the same sender key and salt, encrypts it
/// to the same bytes; `cryptography` checks the VAPID token's ES256 signature and claims.
@Suite("Web Push: messages decrypt with http_ece, VAPID verifies with cryptography")
struct WebPushCryptoTests {
  /// A user agent's subscription keys made by `cryptography`: its private key (for the oracle to
  /// decrypt with), its public key and its auth secret, base64url.
  static func subscription() throws -> (privateKey: String, p256dh: String, auth: String) {
    let output = try CLI.python(
      """
      import base64, os
      from cryptography.hazmat.primitives.asymmetric import ec
      from cryptography.hazmat.primitives import serialization
      def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
      key = ec.generate_private_key(ec.SECP256R1())
      private = key.private_numbers().private_value.to_bytes(32, "big")
      public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
      print(b64(private), b64(public), b64(os.urandom(16)))
      """, [])
    let parts = output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    try #require(parts.count == 3, "\(output)")
    return (parts[0], parts[1], parts[2])
  }

  /// What `http_ece` decrypts `body` to, with the user agent's private key and auth secret.
  static func decrypted(_ body: [UInt8], privateKey: String, auth: String) throws -> [UInt8] {
    let output = try CLI.python(
      """
      import base64, sys, http_ece
      from cryptography.hazmat.primitives.asymmetric import ec
      def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
      key = ec.derive_private_key(int.from_bytes(unb64(sys.argv[2]), "big"), ec.SECP256R1())
      plain = http_ece.decrypt(unb64(sys.argv[1]), private_key=key, auth_secret=unb64(sys.argv[3]), version="aes128gcm")
      print(base64.urlsafe_b64encode(plain).rstrip(b"=").decode())
      """, [VAPID.base64URL(body), privateKey, auth])
    let bytes = VAPID.bytes(base64URL: output.trimmingCharacters(in: .whitespacesAndNewlines))
    return try #require(bytes, "\(output)")
  }

  @Test func aMessageDecryptsWithHttpEceForEveryLength() throws {
    let keys = try Self.subscription()
    let p256dh = try #require(VAPID.bytes(base64URL: keys.p256dh))
    let auth = try #require(VAPID.bytes(base64URL: keys.auth))
    var generator = SystemRandomNumberGenerator()
    for length in [0, 1, 15, 16, 17, 100, 1000, WebPushMessage.maximumPlaintext] {
      let plaintext = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let body = try WebPushMessage.encrypt(plaintext, p256dh: p256dh, auth: auth)
      #expect(body.count == 86 + length + 17 && body.count <= 4096)
      #expect(try Self.decrypted(body, privateKey: keys.privateKey, auth: keys.auth) == plaintext, "length \(length)")
    }
    #expect(throws: WebPushMessage.Failure.tooLong(WebPushMessage.maximumPlaintext + 1)) {
      try WebPushMessage.encrypt(
        [UInt8](repeating: 1, count: WebPushMessage.maximumPlaintext + 1), p256dh: p256dh, auth: auth)
    }
  }

  @Test func theSameSenderKeyAndSaltGiveHttpEcesBytes() throws {
    let keys = try Self.subscription()
    let sender = P256Key()
    let salt = WebPushMessage.randomSalt()
    let plaintext = Array(#"<P:push-message xmlns:P="https://bitfire.at/webdav-push"/>"#.utf8)
    let ours = try WebPushMessage.encrypt(
      plaintext, p256dh: try #require(VAPID.bytes(base64URL: keys.p256dh)),
      auth: try #require(VAPID.bytes(base64URL: keys.auth)), sender: sender, salt: salt)
    let theirs = try CLI.python(
      """
      import base64, sys, http_ece
      from cryptography.hazmat.primitives.asymmetric import ec
      def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
      sender = ec.derive_private_key(int.from_bytes(unb64(sys.argv[1]), "big"), ec.SECP256R1())
      body = http_ece.encrypt(unb64(sys.argv[2]), salt=unb64(sys.argv[3]), private_key=sender,
                              dh=unb64(sys.argv[4]), auth_secret=unb64(sys.argv[5]), version="aes128gcm", rs=4096)
      print(base64.urlsafe_b64encode(body).rstrip(b"=").decode())
      """,
      [
        VAPID.base64URL(sender.privateKey), VAPID.base64URL(plaintext), VAPID.base64URL(salt), keys.p256dh, keys.auth,
      ])
    #expect(VAPID.base64URL(ours) == theirs.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func aBadSubscriptionKeyOrSecretIsRefused() throws {
    let keys = try Self.subscription()
    let p256dh = try #require(VAPID.bytes(base64URL: keys.p256dh))
    let auth = try #require(VAPID.bytes(base64URL: keys.auth))
    var offCurve = p256dh
    offCurve[64] ^= 1
    #expect(throws: WebPushMessage.Failure.invalidPublicKey) {
      try WebPushMessage.encrypt([1], p256dh: offCurve, auth: auth)
    }
    #expect(throws: WebPushMessage.Failure.invalidPublicKey) {
      try WebPushMessage.encrypt([1], p256dh: Array(p256dh.prefix(33)), auth: auth)
    }
    #expect(throws: WebPushMessage.Failure.invalidAuthSecret) {
      try WebPushMessage.encrypt([1], p256dh: p256dh, auth: Array(auth.prefix(8)))
    }
    #expect(P256Key(privateKey: [UInt8](repeating: 0, count: 32)) == nil, "zero is no scalar")
    #expect(P256Key(privateKey: [UInt8](repeating: 0xFF, count: 32)) == nil, "nor is one past the order")
  }

  @Test func aVAPIDTokenVerifiesWithCryptography() throws {
    let key = P256Key()
    let restored = try #require(P256Key(privateKey: key.privateKey))
    #expect(restored.publicKey == key.publicKey)
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let endpoint = try #require(URL(string: "https://push.example.net:8443/wpush/abc?x=1"))
    let header = try #require(
      VAPID.authorization(endpoint: endpoint, key: key, subject: "mailto:ann@example.com", now: now))
    let output = try CLI.python(
      """
      import base64, json, re, sys
      from cryptography.hazmat.primitives import hashes
      from cryptography.hazmat.primitives.asymmetric import ec, utils
      def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
      match = re.fullmatch(r"vapid t=([^,]+), k=(\\S+)", sys.argv[1])
      token, key = match.group(1), match.group(2)
      head, claims, signature = token.split(".")
      public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
      raw = unb64(signature)
      der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
      public.verify(der, (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
      print(json.dumps([json.loads(unb64(head)), json.loads(unb64(claims))]))
      """, [header])
    let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    #expect(decoded.first?["alg"] as? String == "ES256")
    let claims = try #require(decoded.last)
    #expect(claims["aud"] as? String == "https://push.example.net:8443")
    #expect(claims["sub"] as? String == "mailto:ann@example.com")
    #expect(claims["exp"] as? Int == 1_795_000_000 + 12 * 3600)
  }
}
