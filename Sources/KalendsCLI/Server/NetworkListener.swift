import Foundation
import HummingbirdTLS
import KalendsCommandSupport

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
  /// The server's TLS configuration, when a certificate and key were given.
  let tls: TLSConfiguration?

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
      throw CLIError.invalidInput("--listen takes [HOST:]PORT (127.0.0.1:8443, [::1]:8443, 8443), not \"\(address)\"")
    }
    self.host = host
    self.port = port
    switch (certificate, key) {
    case (nil, nil):
      tls = nil
      guard Self.isLoopback(host) else {
        throw CLIError.invalidInput(
          "\(host) is not a loopback address: serving apps' tokens off this machine needs --tls-certificate and --tls-key"
        )
      }
    case (let certificate?, let key?):
      do {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate)
        let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        tls = TLSConfiguration.makeServerConfiguration(
          certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
      } catch {
        throw CLIError.invalidInput("cannot load the TLS certificate or key: \(error)")
      }
    default:
      throw CLIError.invalidInput("give both --tls-certificate and --tls-key, or neither")
    }
  }

  /// Whether `host` names the loopback interface.
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}
