import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// One HTTP/1.1 connection to a remote server's origin, kept open for a sequence of requests
/// (``RemoteHTTP/withConnection(to:address:connectTimeout:_:)``): TLS for `https` (the system's
/// OpenSSL, trusting the system's roots: ``TLSClientHandler``), a bound on each answer's size and
/// on the time each exchange takes, no redirect followed.
///
/// Owned by the one task that opened it; requests go one after another. After an answer that
/// closes the connection (`Connection: close`, HTTP/1.0), a broken one, or one that took too long,
/// ``isReusable`` is `false` and no further request may be sent on it.
final class RemoteConnection {
  private var parts: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
  private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
  private let channel: any Channel
  /// The origin's `Host` header.
  private let hostHeader: String
  /// Whether another request may be sent.
  private(set) var isReusable = true
  /// The exchanges completed on this connection.
  private(set) var exchanges = 0

  fileprivate init(
    _ inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>,
    _ outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>, channel: any Channel, hostHeader: String
  ) {
    (self.parts, self.outbound, self.channel, self.hostHeader) =
      (inbound.makeAsyncIterator(), outbound, channel, hostHeader)
  }

  /// Sends one request for `target` (a path on this connection's origin) and returns the whole
  /// answer. With `closing`, asks the server to close the connection after it.
  ///
  /// - Parameters:
  ///   - headers: header fields beside `Host`, `User-Agent`, `Connection` and `Content-Length`.
  ///   - limit: the most bytes of body read; a larger answer is ``RemoteError/tooLarge(limit:)``.
  ///   - timeout: seconds for this exchange.
  func send(
    _ method: String, target: String, headers: [(String, String)] = [], body: [UInt8]? = nil, limit: Int,
    timeout: Int, closing: Bool = false
  ) async throws(RemoteError) -> RemoteResponse {
    guard isReusable else { throw .unreachable("\(hostHeader): the connection is closed") }
    // Until the answer is whole the connection is in a state no other request may follow.
    isReusable = false
    let expired = Mutex(false)
    let deadline = channel.eventLoop.scheduleTask(in: .seconds(Int64(timeout))) { [channel] in
      expired.withLock { $0 = true }
      channel.close(promise: nil)
    }
    defer { deadline.cancel() }
    do {
      var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: target)
      head.headers.add(name: "Host", value: hostHeader)
      head.headers.add(name: "User-Agent", value: "Kalends")
      head.headers.add(name: "Connection", value: closing ? "close" : "keep-alive")
      for (name, value) in headers { head.headers.add(name: name, value: value) }
      if let body {
        head.headers.add(name: "Content-Length", value: String(body.count))
      } else if method != "GET" && method != "HEAD" {
        head.headers.add(name: "Content-Length", value: "0")
      }
      // One write of the whole request: one hop to the connection's event loop, not three.
      var request: [HTTPClientRequestPart] = [.head(head)]
      if let body { request.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
      request.append(.end(nil))
      try await outbound.write(contentsOf: request)
      var received: HTTPResponseHead?
      var bytes: [UInt8] = []
      while let part = try await parts.next() {
        switch part {
        case .head(let answer): received = answer
        case .body(var buffer):
          guard bytes.count + buffer.readableBytes <= limit else { throw RemoteError.tooLarge(limit: limit) }
          bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
          guard let received else { throw RemoteError.malformed("an answer without a head") }
          exchanges += 1
          isReusable = !closing && received.isKeepAlive && !expired.withLock({ $0 })
          return RemoteResponse(
            status: Int(received.status.code), headers: received.headers.map { ($0.name, $0.value) }, body: bytes)
        }
      }
      throw RemoteError.unreachable("\(hostHeader) closed the connection before the answer was whole")
    } catch let error as RemoteError {
      throw error
    } catch {
      if expired.withLock({ $0 }) { throw .timedOut(seconds: timeout) }
      throw .unreachable("\(hostHeader): \(error)")
    }
  }
}

extension RemoteHTTP {
  /// Opens a connection to `url`'s origin — to `address` when given (an address the caller
  /// resolved and checked), else to its host — runs `body` with it, and closes it. The connection
  /// is served by `loop` when given (the loop of the caller's ``EventLoopExecutor``), else by one
  /// of NIO's shared loops.
  ///
  /// Throws ``RemoteError/unreachable(_:)`` when no connection is made within `connectTimeout`
  /// seconds; what `body` throws is rethrown.
  static func withConnection<Result>(
    to url: RemoteURL, address: SocketAddress? = nil, on loop: (any EventLoop)? = nil, connectTimeout: Int = 15,
    _ body: (RemoteConnection) async throws -> sending Result
  ) async throws -> sending Result {
    let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    do {
      let tls = url.isSecure ? tlsHandler(host: url.host) : nil
      let bootstrap = ClientBootstrap(group: loop ?? MultiThreadedEventLoopGroup.singleton.next())
        .connectTimeout(.seconds(Int64(max(1, connectTimeout))))
      let initializer:
        @Sendable (any Channel) -> EventLoopFuture<NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>> = {
          channel in
          channel.eventLoop.makeCompletedFuture {
            try tls?(channel)
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
              wrappingChannelSynchronously: channel)
          }
        }
      if let address {
        channel = try await bootstrap.connect(to: address, channelInitializer: initializer)
      } else {
        channel = try await bootstrap.connect(host: url.host, port: url.port, channelInitializer: initializer)
      }
    } catch let error as RemoteError {
      throw error
    } catch {
      throw RemoteError.unreachable("\(url.hostHeader): \(error)")
    }
    return try await channel.executeThenClose { inbound, outbound in
      try await body(RemoteConnection(inbound, outbound, channel: channel.channel, hostHeader: url.hostHeader))
    }
  }

  /// What adds TLS to a connection to `host` (``TLSClientHandler``: the system's OpenSSL,
  /// checking the certificate against the system's roots and `host`, a name or an address). A
  /// session OpenSSL cannot make fails the connection with its reason.
  static func tlsHandler(host: String) -> @Sendable (any Channel) throws -> Void {
    { channel in try channel.pipeline.syncOperations.addHandler(try TLSClientHandler(host: host)) }
  }
}
