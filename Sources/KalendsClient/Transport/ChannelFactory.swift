import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Opens connections to an ``Endpoint``: a Unix socket or TCP, TLS when asked, with HTTP/1.1
/// client handlers, as an async channel of response and request parts.
enum ChannelFactory {
  typealias Channel = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

  static func connect(to endpoint: Endpoint) async throws -> Channel {
    let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
    do {
      switch endpoint {
      case .unixSocket(let path):
        return try await bootstrap.connect(unixDomainSocketPath: path) { channel in
          channel.eventLoop.makeCompletedFuture { try wrap(channel, tls: nil, host: nil) }
        }
      case .tcp(let host, let port, _, let trust):
        let context = try trust.map(Self.context)
        return try await bootstrap.connect(host: host, port: port) { channel in
          channel.eventLoop.makeCompletedFuture { try wrap(channel, tls: context, host: host) }
        }
      }
    } catch let error as KalendsClientError {
      throw error
    } catch {
      throw KalendsClientError.unreachable("\(endpoint): \(error)")
    }
  }

  private static func wrap(_ channel: any NIOCore.Channel, tls: NIOSSLContext?, host: String?) throws -> Channel {
    if let tls {
      // A host given as an address is checked against the certificate's IP addresses.
      let name = host.flatMap { (try? SocketAddress(ipAddress: $0, port: 0)) == nil ? $0 : nil }
      try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: name))
    }
    try channel.pipeline.syncOperations.addHTTPClientHandlers()
    return try Channel(wrappingChannelSynchronously: channel)
  }

  private static func context(_ trust: Endpoint.TLSTrust) throws -> NIOSSLContext {
    var configuration = TLSConfiguration.makeClientConfiguration()
    if case .certificates(let file) = trust {
      do {
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
      } catch {
        throw KalendsClientError.unreachable("cannot read the certificates in \(file): \(error)")
      }
    }
    return try NIOSSLContext(configuration: configuration)
  }

  /// The request's head, with `Host`, the token over TCP, and the body's length.
  static func head(_ request: HTTPRequest, endpoint: Endpoint, keepAlive: Bool) -> HTTPRequestHead {
    var head = HTTPRequestHead(
      version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: request.target)
    head.headers.add(name: "Host", value: endpoint.host)
    if let authorization = endpoint.authorization { head.headers.add(name: "Authorization", value: authorization) }
    for (name, value) in request.headers { head.headers.add(name: name, value: value) }
    if let body = request.body {
      head.headers.add(name: "Content-Type", value: "application/json")
      head.headers.add(name: "Content-Length", value: String(body.count))
    } else if request.method != "GET" {
      head.headers.add(name: "Content-Length", value: "0")
    }
    if !keepAlive { head.headers.add(name: "Connection", value: "close") }
    return head
  }
}
