package import Foundation

/// Voluntary Application Server Identification for Web Push (RFC 8292): the `Authorization` a
/// push is sent with, a JWT signed with the store's P-256 key, so a push service can tie the
/// subscriptions an app made with that key to this store alone.
package enum VAPID {
  /// The `Authorization` header value for a push to `endpoint`: `vapid t=JWT, k=KEY` (RFC 8292
  /// §3), the JWT's audience the endpoint's origin, expiring `lifetime` seconds from `now` (at most
  /// a day, §2), its subject `subject` (a `mailto:` or `https:` address of the store's operator).
  package static func authorization(
    endpoint: URL, key: P256Key, subject: String, now: Date = Date(), lifetime: TimeInterval = 12 * 3600
  ) -> String? {
    guard let scheme = endpoint.scheme, let host = endpoint.host else { return nil }
    var audience = scheme + "://" + host
    if let port = endpoint.port { audience += ":\(port)" }
    let header = #"{"typ":"JWT","alg":"ES256"}"#
    let expiry = Int(now.timeIntervalSince1970 + min(lifetime, 24 * 3600))
    let claims = #"{"aud":"\#(jsonEscaped(audience))","exp":\#(expiry),"sub":"\#(jsonEscaped(subject))"}"#
    let signingInput = base64URL(Array(header.utf8)) + "." + base64URL(Array(claims.utf8))
    let token = signingInput + "." + base64URL(key.signature(of: Array(signingInput.utf8)))
    return "vapid t=\(token), k=\(base64URL(key.publicKey))"
  }

  /// The store's VAPID key, derived from its push secret (`Store.pushSecret()`): the first of
  /// HMAC-SHA-256(secret, "vapid" ‖ n), n = 0, 1, …, that is a valid P-256 scalar (the first, but
  /// for a chance of 2⁻³²). So the key lives where the secret does — the store's metadata, its
  /// backups — and nowhere else.
  package static func key(fromSecret secret: [UInt8]) -> P256Key {
    var counter: UInt8 = 0
    while true {
      if let key = P256Key(privateKey: WebPushPrimitive.hmac(secret, Array("vapid".utf8) + [counter])) { return key }
      counter &+= 1
    }
  }

  /// Base64url without padding (RFC 4648 §5), as Web Push writes keys and JWTs.
  package static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// The bytes of base64url `text` (padded or not); `nil` when it is not base64url.
  package static func bytes(base64URL text: String) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    guard !standard.contains("="),
      standard.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") })
    else { return nil }
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard).map { Array($0) }
  }

  private static func jsonEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
  }
}
