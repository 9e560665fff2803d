/// An `http` or `https` address split into what a connection needs.
public struct RemoteURL: Hashable, Sendable, CustomStringConvertible {
  /// Whether the connection is TLS.
  public let isSecure: Bool
  /// The host: a name, or an address (IPv6 without its brackets).
  public let host: String
  /// The port.
  public let port: Int
  /// The request target: the path and query, at least `/`.
  public let target: String

  /// The parts of `text`; `nil` for another scheme, a user name or password, or no host.
  public init?(_ text: String) {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let scheme = text[..<colon].lowercased()
    guard scheme == "http" || scheme == "https" else { return nil }
    let rest = text[text.index(after: colon)...]
    guard rest.hasPrefix("//") else { return nil }
    let afterSlashes = rest.dropFirst(2)
    let authority = afterSlashes.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty, !authority.contains("@") else { return nil }
    var target = String(afterSlashes.dropFirst(authority.count).prefix { $0 != "#" })
    if !target.hasPrefix("/") { target = "/" + target }
    isSecure = scheme == "https"
    var host = Substring(authority)
    var port = isSecure ? 443 : 80
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return nil }
      let after = host[host.index(after: close)...]
      if after.hasPrefix(":") {
        guard let given = Int(after.dropFirst()), (1...65535).contains(given) else { return nil }
        port = given
      } else if !after.isEmpty {
        return nil
      }
      host = host[host.index(after: host.startIndex)..<close]
    } else if let portColon = host.lastIndex(of: ":") {
      guard let given = Int(host[host.index(after: portColon)...]), (1...65535).contains(given) else { return nil }
      port = given
      host = host[..<portColon]
    }
    guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }),
      target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
    else { return nil }
    self.host = host.lowercased()
    self.port = port
    self.target = target
  }

  /// The `Host` header's value.
  var hostHeader: String {
    let name = host.contains(":") ? "[\(host)]" : host
    return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
  }

  /// `location` (a `Location` header) resolved against this address: absolute, or a path on the
  /// same host.
  func resolving(_ location: String) -> RemoteURL? {
    if location.hasPrefix("/") && !location.hasPrefix("//") {
      return RemoteURL("\(isSecure ? "https" : "http")://\(hostHeader)\(location)")
    }
    return RemoteURL(location)
  }

  public var description: String { "\(isSecure ? "https" : "http")://\(hostHeader)\(target)" }
}
