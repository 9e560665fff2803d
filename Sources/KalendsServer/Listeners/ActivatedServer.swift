import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The store server's HTTP service on a listening socket it was handed (socket activation), where
/// Hummingbird's `Application` binds its own.
///
/// It serves the same router through the same HTTP/1.1 channel (header limits, idle and header
/// timeouts) with the same connection limit, and on graceful shutdown stops accepting and lets
/// the requests in flight finish, as `Application` does. The socket's file stays: it is the
/// service manager's, which keeps listening on it and starts the server again on the next
/// connection.
struct ActivatedServer: Service {
  /// The inherited listening socket.
  let socket: ActivatedSocket
  /// The routes (`Router.buildResponder()`).
  let responder: RouterResponder<ServerContext>
  /// The HTTP/1.1 channel's limits and timeouts.
  let http: HTTP1Channel.Configuration
  /// How many connections are served at once; more wait in the socket's backlog.
  let maxConnections: Int
  let logger: Logger
  /// Called once the server accepts connections.
  let onRunning: @Sendable () -> Void

  func run() async throws {
    let responder = responder
    let logger = logger
    let child = HTTP1Channel(
      responder: { request, writer, channel in
        let context = ServerContext(source: .init(channel: channel, logger: logger))
        var response: Response
        do {
          response = try await responder.respond(to: request, context: context)
        } catch let error as HTTPParserError {
          throw error
        } catch {
          logger.debug("unrecognised error", metadata: ["error": "\(error)"])
          response = Response(status: .internalServerError)
        }
        response.headers[.date] = Self.httpDate()
        try await writer.write(response: response.head, body: response.body)
      }, configuration: http)
    let quiescing = ServerQuiescingHelper(group: MultiThreadedEventLoopGroup.singleton)
    let limit = maxConnections
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(AvailableConnectionsChannelHandler(maxConnections: limit))
          try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
        }
      }
      .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
      .bind(NIOBSDSocket.Handle(socket.descriptor)) { channel in child.setup(channel: channel, logger: logger) }
    onRunning()
    await withGracefulShutdownHandler {
      await withDiscardingTaskGroup { group in
        do {
          try await listener.executeThenClose { inbound in
            for try await connection in inbound {
              group.addTask { await child.handle(value: connection, logger: logger) }
            }
          }
        } catch {
          logger.error("accepting connections failed: \(error)")
        }
      }
    } onGracefulShutdown: {
      quiescing.initiateShutdown(promise: nil)
    }
  }

  /// Now as an HTTP date (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`), which an origin server
  /// with a clock sends on every response.
  static func httpDate() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let length = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
