import Foundation

/// Where an app reaches the store server, and how it is identified there.
public enum Endpoint: Sendable, Hashable {
  /// The server's Unix socket (`kalends serve --socket PATH`): the server identifies the app by
  /// what the kernel says about its process, so the app presents nothing.
  case unixSocket(path: String)
  /// The server's TCP listener (`kalends serve --listen`), presenting `token` (from `kalends
  /// client token create`); over TLS when `tls` is given, which needs the package built with its
  /// trait `TLS` (without it, such an endpoint is ``KalendsClientError/unreachable(_:)``).
  case tcp(host: String, port: Int, token: String, tls: TLSTrust? = nil)

  /// How a TLS client trusts the server's certificate.
  public enum TLSTrust: Sendable, Hashable {
    /// The system's trust roots.
    case system
    /// The certificates in this PEM file (a private CA, or the server's self-signed certificate).
    case certificates(pemFile: String)
  }

  /// The server of the person's default store: its well-known socket,
  /// `$XDG_RUNTIME_DIR/kalends/kalends.sock` (`/run/user/UID/kalends/kalends.sock` when the
  /// variable is not set), where `kalends serve` listens for that store unless told otherwise.
  public static var defaultStore: Endpoint {
    let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    return .unixSocket(path: (runtime ?? "/run/user/\(getuid())") + "/kalends/kalends.sock")
  }

  /// The `Host` header's value.
  var host: String {
    switch self {
    case .unixSocket: "kalends"
    case .tcp(let host, let port, _, _): "\(host):\(port)"
    }
  }

  /// The `Authorization` header's value, for TCP.
  var authorization: String? {
    if case .tcp(_, _, let token, _) = self { return "Bearer \(token)" }
    return nil
  }
}
