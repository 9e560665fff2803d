import NIOCore
import NIOHTTP1

/// One HTTP/1.1 connection to the store server, its requests answered one after another.
///
/// Over the Unix socket the server identifies a connection once (it reads and hashes the app's
/// executable), so the client keeps one open rather than connecting per request. The connection
/// runs in a task of its own, inside NIO's scoped `executeThenClose`; requests reach it through
/// a stream of jobs, each with the continuation its caller waits on.
final class HTTPConnection: Sendable {
  private struct Job: Sendable {
    let request: HTTPRequest
    let reply: CheckedContinuation<HTTPResponse, any Error>
  }

  private let jobs: AsyncStream<Job>.Continuation
  private let task: Task<Void, Never>

  /// Connects to `endpoint`.
  init(to endpoint: Endpoint) async throws {
    let channel = try await ChannelFactory.connect(to: endpoint)
    let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
    self.jobs = jobs
    task = Task {
      var pending = stream.makeAsyncIterator()
      var failure: any Error = KalendsClientError.connectionLost
      do {
        try await channel.executeThenClose { inbound, outbound in
          var parts = inbound.makeAsyncIterator()
          while let job = await pending.next() {
            do {
              try await outbound.write(.head(ChannelFactory.head(job.request, endpoint: endpoint, keepAlive: true)))
              if let body = job.request.body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
              try await outbound.write(.end(nil))
              job.reply.resume(returning: try await Self.read(&parts))
            } catch {
              // A broken connection (reset, closed) is reported as such, whatever NIO called it.
              job.reply.resume(throwing: error as? KalendsClientError ?? .connectionLost)
              throw error
            }
          }
        }
      } catch {
        failure = error
      }
      jobs.finish()
      while let job = await pending.next() { job.reply.resume(throwing: KalendsClientError.connectionClosed) }
      _ = failure
    }
  }

  deinit {
    jobs.finish()
  }

  /// Sends `request` and waits for its whole response. Throws
  /// ``KalendsClientError/connectionClosed`` when the connection had ended before the request was
  /// sent, ``KalendsClientError/connectionLost`` when it ended before the response arrived.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await withCheckedThrowingContinuation { reply in
      if case .terminated = jobs.yield(Job(request: request, reply: reply)) {
        reply.resume(throwing: KalendsClientError.connectionClosed)
      }
    }
  }

  /// Reads one response: its head, its body, its end.
  static func read(
    _ parts: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
  ) async throws -> HTTPResponse {
    var head: HTTPResponseHead?
    var body: [UInt8] = []
    while let part = try await parts.next() {
      switch part {
      case .head(let received): head = received
      case .body(var buffer): body += buffer.readBytes(length: buffer.readableBytes) ?? []
      case .end:
        guard let head else { throw KalendsClientError.malformedResponse("a response without a head") }
        return HTTPResponse(
          status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) }, body: body)
      }
    }
    throw KalendsClientError.connectionLost
  }
}
