import Foundation
import KalendsFormats
import NIOCore

/// Where `kalends serve --listen` serves TCP, and with which TLS configuration.
///
/// Apps over TCP are identified by the tokens they present, which travel in every request: off the
/// loopback interface they must not travel in the clear, so an address other than loopback is
/// refused without a certificate and key.
struct NetworkListener {
  /// The host to bind (`127.0.0.1` unless the address names one).
  let host: String
  /// The port; 0 lets the system pick one (printed on `listening on`).
  let port: Int
  /// The server's TLS, when a certificate and key were given.
  let tls: ServerTLS?

  /// Parses `[HOST:]PORT` (an IPv6 host in brackets) and loads the certificate chain and key.
  init(address: String, certificate: String?, key: String?) throws {
    var host = "127.0.0.1"
    var portText = Substring(address)
    if let colon = address.lastIndex(of: ":") {
      host = String(address[..<colon])
      portText = address[address.index(after: colon)...]
      if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    }
    guard let port = Int(portText), (0...65_535).contains(port), !host.isEmpty else {
      throw ServerError.invalidInput(
        "--listen takes [HOST:]PORT (127.0.0.1:8443, [::1]:8443, 8443), not \"\(address)\"")
    }
    // The name is resolved once, here, and the server binds the address it resolved to: what is
    // checked is what is bound (a name such as 127.example.invalid is not loopback).
    let resolved: SocketAddress
    do {
      resolved = try SocketAddress.makeAddressResolvingHost(host, port: port)
    } catch {
      throw ServerError.invalidInput("--listen: cannot resolve \"\(host)\": \(error)")
    }
    guard let bound = resolved.ipAddress else {
      throw ServerError.invalidInput("--listen: \"\(host)\" is not an IP address or host name")
    }
    self.host = bound
    self.port = port
    switch (certificate, key) {
    case (nil, nil):
      tls = nil
      guard Self.isLoopback(resolved) else {
        throw ServerError.invalidInput(
          "\(host) is not a loopback address: serving apps' tokens off this machine needs --tls-certificate and --tls-key"
        )
      }
    case (let certificate?, let key?):
      tls = try ServerTLS.load(certificate: certificate, key: key)
    default:
      throw ServerError.invalidInput("give both --tls-certificate and --tls-key, or neither")
    }
  }

  /// Whether `address` is on the loopback interface: 127.0.0.0/8 or ::1 (or an IPv4-mapped
  /// 127.0.0.0/8). Read from the address's numeric text, as `inet_ntop` writes it (a resolved
  /// address, never the text given).
  static func isLoopback(_ address: SocketAddress) -> Bool {
    guard let text = address.ipAddress?.lowercased() else { return false }
    switch address {
    case .v4: return text.hasPrefix("127.")
    case .v6: return text == "::1" || text.hasPrefix("::ffff:127.")
    default: return false
    }
  }

}
