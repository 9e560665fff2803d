import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if TLS
  import NIOSSL
#endif

/// Requests to remote servers (feeds, accounts), each over a connection of its own: HTTP/1.1,
/// TLS for `https` (with the package trait `TLS`, trusting the system's roots), a bound on the
/// answer's size and on the time it takes, no redirect followed (callers decide).
public enum RemoteHTTP {
  /// Sends one request to `url` and returns the whole answer.
  ///
  /// - Parameters:
  ///   - method: the request's method (`GET`, `PROPFIND`, `REPORT`, `PUT`, …).
  ///   - url: where to send it.
  ///   - headers: header fields beside `Host`, `User-Agent`, `Connection` and `Content-Length`.
  ///   - body: the request's body, if any.
  ///   - limit: the most bytes of body read; a larger answer is ``RemoteError/tooLarge(limit:)``.
  ///   - timeout: seconds for the whole exchange, connection included.
  public static func send(
    _ method: String, _ url: RemoteURL, headers: [(String, String)] = [], body: [UInt8]? = nil, limit: Int,
    timeout: Int = 30
  ) async throws(RemoteError) -> RemoteResponse {
    let expired = Mutex(false)
    let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    do {
      let tls = try url.isSecure ? tlsHandler(host: url.host) : nil
      channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connectTimeout(.seconds(Int64(max(1, min(timeout, 15)))))
        .connect(host: url.host, port: url.port) { channel in
          channel.eventLoop.makeCompletedFuture {
            try tls?(channel)
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
              wrappingChannelSynchronously: channel)
          }
        }
    } catch let error as RemoteError {
      throw error
    } catch {
      throw .unreachable("\(url.hostHeader): \(error)")
    }
    let deadline = channel.channel.eventLoop.scheduleTask(in: .seconds(Int64(timeout))) {
      expired.withLock { $0 = true }
      channel.channel.close(promise: nil)
    }
    defer { deadline.cancel() }
    do {
      return try await channel.executeThenClose { inbound, outbound in
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: url.target)
        head.headers.add(name: "Host", value: url.hostHeader)
        head.headers.add(name: "User-Agent", value: "Kalends")
        head.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if let body {
          head.headers.add(name: "Content-Length", value: String(body.count))
        } else if method != "GET" && method != "HEAD" {
          head.headers.add(name: "Content-Length", value: "0")
        }
        try await outbound.write(.head(head))
        if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        try await outbound.write(.end(nil))
        var received: HTTPResponseHead?
        var bytes: [UInt8] = []
        for try await part in inbound {
          switch part {
          case .head(let answer): received = answer
          case .body(var buffer):
            guard bytes.count + buffer.readableBytes <= limit else { throw RemoteError.tooLarge(limit: limit) }
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
          case .end:
            guard let received else { throw RemoteError.malformed("an answer without a head") }
            return RemoteResponse(
              status: Int(received.status.code), headers: received.headers.map { ($0.name, $0.value) }, body: bytes)
          }
        }
        throw RemoteError.unreachable("\(url.hostHeader) closed the connection before the answer was whole")
      }
    } catch let error as RemoteError {
      throw error
    } catch {
      if expired.withLock({ $0 }) { throw .timedOut(seconds: timeout) }
      throw .unreachable("\(url.hostHeader): \(error)")
    }
  }

  /// What adds TLS to a connection to `host`, checking its certificate against the system's roots
  /// and `host` (an address is checked against the certificate's addresses).
  private static func tlsHandler(host: String) throws(RemoteError) -> @Sendable (any Channel) throws -> Void {
    #if TLS
      do {
        let context = try NIOSSLContext(configuration: .makeClientConfiguration())
        let name = (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
        return { channel in
          try channel.pipeline.syncOperations.addHandler(
            try NIOSSLClientHandler(context: context, serverHostname: name))
        }
      } catch {
        throw .unreachable("TLS: \(error)")
      }
    #else
      throw .unreachable("\(host): https needs TLS, and this kalends was built without the package trait TLS")
    #endif
  }
}
