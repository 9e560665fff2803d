import Foundation
import Hummingbird
import HummingbirdCore
import Logging

/// `kalends-floor-server SOCKET BYTES`: the floor under Benchmarks/scripts/bench-server's figures. Hummingbird 2
/// on a Unix socket, with the store server's HTTP configuration, answering the routes the bench
/// times with constants from memory: `GET /v1/whoami` a 179-byte body (the store server's answer
/// to the bench's app is that size), `GET /v1/instances` a body of BYTES (a week's answer),
/// `POST /v1/events` (the body read whole) 201 with the 179 bytes. What the store server spends
/// above these is its own. Prints `listening on SOCKET` once it accepts connections; SIGTERM stops
/// it. Not a product.
@main
struct FloorServer {
  static func main() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, let bytes = Int(arguments[2]), bytes >= 0 else {
      FileHandle.standardError.write(Data("usage: kalends-floor-server SOCKET BYTES\n".utf8))
      exit(64)
    }
    let path = arguments[1]
    let small = ByteBuffer(string: "{" + String(repeating: "x", count: 177) + "}")
    let large = ByteBuffer(string: String(repeating: "x", count: bytes))
    let json: HTTPFields = [.contentType: "application/json"]
    let router = Router()
    router.get("v1/whoami") { _, _ in Response(status: .ok, headers: json, body: ResponseBody(byteBuffer: small)) }
    router.get("v1/instances") { _, _ in Response(status: .ok, headers: json, body: ResponseBody(byteBuffer: large)) }
    router.post("v1/events") { request, _ in
      _ = try await request.body.collect(upTo: 1 << 20)
      return Response(status: .created, headers: json, body: ResponseBody(byteBuffer: small))
    }
    unlink(path)
    var configuration = ApplicationConfiguration(address: .unixDomainSocket(path: path))
    configuration.availableConnectionsDelegate = MaximumAvailableConnections(512)
    // The store server's HTTP configuration, but for its own handlers (connection slots, the
    // header deadline): the framework's cost, no more.
    let http = HTTP1Channel.Configuration(
      idleTimeout: .seconds(60),
      httpDecoderConfiguration: .init(
        maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
    var logger = Logger(label: "kalends.floor")
    logger.logLevel = .warning
    let app = Application(
      router: router, server: .http1(configuration: http), configuration: configuration,
      onServerRunning: { _ in FileHandle.standardOutput.write(Data("listening on \(path)\n".utf8)) },
      logger: logger)
    try await app.runService()
  }
}
