import Foundation

/// Where pushes are never sent unless the person allowed it (`kalends serve
/// --push-allow-loopback`): a push resource is an address an app chose, and a request to it is
/// made by the store, so it must not reach the store's own machine or network (SSRF) — loopback,
/// private (RFC 1918, RFC 4193), link-local (RFC 3927, RFC 4291: 169.254.169.254 is where cloud
/// machines keep their credentials), unspecified, and `localhost` names.
package enum PushEndpointCheck {
  /// Whether `host` (a name, an IPv4 address, or an IPv6 address with or without brackets) is
  /// loopback, private, link-local or unspecified.
  package static func isLocal(_ host: String) -> Bool {
    let name = host.lowercased().trimmingCharacters(in: ["[", "]"])
    if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local") { return true }
    if let octets = ipv4(name) {
      switch (octets[0], octets[1]) {
      case (0, _), (10, _), (127, _), (169, 254), (192, 168): return true
      case (172, 16...31), (100, 64...127): return true
      default: return false
      }
    }
    if name.contains(":") {
      if name == "::" || name == "::1" { return true }
      if name.hasPrefix("fe8") || name.hasPrefix("fe9") || name.hasPrefix("fea") || name.hasPrefix("feb") {
        return true
      }
      if name.hasPrefix("fc") || name.hasPrefix("fd") { return true }
      if name.hasPrefix("::ffff:"), let mapped = ipv4(String(name.dropFirst(7))) {
        return isLocal(mapped.map(String.init).joined(separator: "."))
      }
    }
    return false
  }

  /// Whether `host` is the loopback: `localhost`, 127.0.0.0/8 or `::1`.
  package static func isLoopback(_ host: String) -> Bool {
    let name = host.lowercased().trimmingCharacters(in: ["[", "]"])
    return name == "localhost" || name == "::1" || ipv4(name)?.first == 127
  }

  /// The four octets of a dotted IPv4 address.
  private static func ipv4(_ text: String) -> [Int]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    let octets = parts.compactMap { part -> Int? in
      guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isNumber), let value = Int(part), value <= 255 else {
        return nil
      }
      return value
    }
    return octets.count == 4 ? octets : nil
  }
}
