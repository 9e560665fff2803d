import Hummingbird
import HummingbirdCore
package import Kalends

/// C2SP tlog-witness over HTTP (`kalends witness serve`): `POST /add-checkpoint` answered by a
/// ``Kalends/Witness``, with the store server's bounds on slow and idle connections.
package enum WitnessServer {
  /// Serves `witness` at `host`:`port` (0 picks a free port) until the task is cancelled or the
  /// process gets SIGTERM or SIGINT. `announce` is given `listening on HOST:PORT` once it accepts
  /// connections. A request's headers and body must arrive within 10 s, an idle connection is
  /// closed after 60 s, at most 256 connections are served at once.
  package static func run(
    _ witness: Witness, host: String, port: Int, announce: @escaping @Sendable (String) -> Void
  ) async throws {
    let router = Router()
    router.post("add-checkpoint") { request, _ -> Response in
      let body = try await request.body.collect(upTo: 1 << 16)
      let answer = witness.addCheckpoint(String(buffer: body))
      return Response(
        status: HTTPResponse.Status(code: answer.status),
        headers: [.contentType: answer.contentType],
        body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
    }
    var configuration = ApplicationConfiguration(address: .hostname(host, port: port))
    configuration.availableConnectionsDelegate = MaximumAvailableConnections(256)
    let http = HTTP1Channel.Configuration(
      additionalChannelHandlers: [RequestTimeoutHandler(deadline: .seconds(10))], idleTimeout: .seconds(60),
      httpDecoderConfiguration: .init(
        maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
    let app = Application(
      router: router, server: .http1(configuration: http), configuration: configuration,
      onServerRunning: { channel in announce("listening on \(host):\(channel.localAddress?.port ?? port)") },
      logger: ServerLogger.make("kalends.witness"))
    try await app.runService()
  }
}
