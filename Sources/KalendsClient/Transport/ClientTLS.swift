import NIOCore

#if TLS
  import NIOSSL
#endif

/// TLS for ``Endpoint/tcp(host:port:token:tls:)``: built only with the package trait `TLS`, which
/// compiles BoringSSL through swift-nio-ssl. Without it, an endpoint that asks for TLS is
/// unreachable, with the reason.
enum ClientTLS {
  /// Adds a TLS handler for `trust` and `host` to `channel`'s pipeline; made once per connection
  /// attempt by ``handlerMaker(_:host:)``.
  typealias HandlerMaker = @Sendable (any Channel) throws -> Void

  /// What adds TLS trusting `trust` to a channel to `host`.
  static func handlerMaker(_ trust: Endpoint.TLSTrust, host: String) throws -> HandlerMaker {
    #if TLS
      var configuration = TLSConfiguration.makeClientConfiguration()
      if case .certificates(let file) = trust {
        do {
          configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
        } catch {
          throw KalendsClientError.unreachable("cannot read the certificates in \(file): \(error)")
        }
      }
      let context = try NIOSSLContext(configuration: configuration)
      // A host given as an address is checked against the certificate's IP addresses.
      let name = (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
      return { channel in
        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: name))
      }
    #else
      throw KalendsClientError.unreachable(
        "\(host): TLS was asked for, and this KalendsClient was built without the package trait TLS")
    #endif
  }
}
