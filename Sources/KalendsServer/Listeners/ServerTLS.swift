import HummingbirdCore
import KalendsFormats

#if TLS
  import HummingbirdTLS

  /// The TLS of `kalends serve --listen`: a certificate chain and key, TLS 1.2 or later. Built only
  /// with the package trait `TLS` (`swift build --traits TLS`), which compiles BoringSSL through
  /// swift-nio-ssl; without it, TCP is served on loopback only, behind a TLS proxy if it must
  /// leave the machine.
  struct ServerTLS {
    let configuration: TLSConfiguration

    /// Loads the PEM certificate chain at `certificate` and the PEM key at `key`.
    static func load(certificate: String, key: String) throws -> ServerTLS {
      do {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate)
        let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
          certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        // TLS 1.0 and 1.1 (and their CBC/SHA-1 suites) are refused at the handshake (RFC 8996).
        configuration.minimumTLSVersion = .tlsv12
        return ServerTLS(configuration: configuration)
      } catch {
        throw ServerError.invalidInput("cannot load the TLS certificate or key: \(error)")
      }
    }

    /// The server speaking HTTP/1.1 with `http` inside TLS.
    func builder(_ http: HTTP1Channel.Configuration) throws -> HTTPServerBuilder {
      try .tls(.http1(configuration: http), tlsConfiguration: configuration)
    }
  }
#else
  /// The TLS of `kalends serve --listen`, in a build without the package trait `TLS`: there is
  /// none, and asking for it says how to get it. No value of it is ever made.
  struct ServerTLS {
    private init() {}

    static func load(certificate: String, key: String) throws -> ServerTLS {
      throw ServerError(
        message:
          "this kalends was built without TLS: build it with `swift build --traits TLS`, or serve on loopback behind a TLS proxy",
        category: .usage)
    }

    /// Plain HTTP/1.1: never reached, since ``load(certificate:key:)`` makes no value.
    func builder(_ http: HTTP1Channel.Configuration) throws -> HTTPServerBuilder { .http1(configuration: http) }
  }
#endif
