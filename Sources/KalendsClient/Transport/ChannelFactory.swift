import NIOCore
import NIOHTTP1
import NIOPosix

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
          channel.eventLoop.makeCompletedFuture { try wrap(channel, tls: nil) }
        }
      case .tcp(let host, let port, _, let trust):
        let tls = try trust.map { try ClientTLS.handlerMaker($0, host: host) }
        return try await bootstrap.connect(host: host, port: port) { channel in
          channel.eventLoop.makeCompletedFuture { try wrap(channel, tls: tls) }
        }
      }
    } catch let error as KalendsClientError {
      throw error
    } catch {
      throw KalendsClientError.unreachable("\(endpoint): \(error)")
    }
  }

  private static func wrap(_ channel: any NIOCore.Channel, tls: ClientTLS.HandlerMaker?) throws -> Channel {
    try tls?(channel)
    try channel.pipeline.syncOperations.addHTTPClientHandlers()
    return try Channel(wrappingChannelSynchronously: channel)
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
