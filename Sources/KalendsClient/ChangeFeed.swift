import Foundation
import NIOCore
import NIOHTTP1

/// The change stream of `GET /v1/changes` (Server-Sent Events) on a connection of its own,
/// resumed after the last notice heard when the connection is lost.
struct ChangeFeed: Sendable {
  let endpoint: Endpoint
  let after: ChangeToken?

  func stream() -> AsyncThrowingStream<ChangeNotice, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: ChangeNotice.self)
    let task = Task {
      var last = after
      var attempts = 0
      while !Task.isCancelled {
        do {
          try await listen(after: last) { notice in
            last = notice.token
            attempts = 0
            continuation.yield(notice)
          }
          // The server ended the stream (it stopped): connect again.
        } catch let error as KalendsClientError {
          switch error {
          case .unreachable, .connectionLost, .connectionClosed:
            attempts += 1
            guard attempts <= 5 else { return continuation.finish(throwing: error) }
          default:
            return continuation.finish(throwing: error)
          }
        } catch {
          // The connection broke (reset, closed mid-event): resume after the last notice heard.
          attempts += 1
          guard attempts <= 5 else { return continuation.finish(throwing: KalendsClientError.connectionLost) }
        }
        try? await Task.sleep(for: .milliseconds(100 * (1 << min(attempts, 5))))
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  /// One connection's stream: yields each notice, returns when the server ends it.
  private func listen(after token: ChangeToken?, _ yield: (ChangeNotice) -> Void) async throws {
    let channel = try await ChannelFactory.connect(to: endpoint)
    var request = HTTPRequest(method: "GET", target: "/v1/changes")
    // A read's token and a notice's are alike: the stream starts after the position sealed in it.
    if let token { request.headers.append(("Last-Event-ID", token.description)) }
    try await channel.executeThenClose { inbound, outbound in
      try await outbound.write(.head(ChannelFactory.head(request, endpoint: endpoint, keepAlive: false)))
      try await outbound.write(.end(nil))
      var pending: [UInt8] = []
      var status = 0
      var errorBody: [UInt8] = []
      for try await part in inbound {
        switch part {
        case .head(let head): status = Int(head.status.code)
        case .body(var buffer):
          let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
          guard status == 200 else {
            errorBody += bytes
            continue
          }
          pending += bytes
          while let event = Self.takeEvent(&pending) { try Self.handle(event, yield) }
        case .end:
          guard status == 200 else {
            throw ServerConnection.problem(HTTPResponse(status: status, headers: [], body: errorBody))
          }
          return
        }
      }
      throw KalendsClientError.connectionLost
    }
  }

  /// Removes and returns the first complete event (up to a blank line) of `pending`.
  static func takeEvent(_ pending: inout [UInt8]) -> [String: String]? {
    let bytes = pending
    guard let end = bytes.indices.dropLast().first(where: { bytes[$0] == 10 && bytes[$0 + 1] == 10 }) else {
      return nil
    }
    let text = String(decoding: bytes[..<end], as: UTF8.self)
    pending.removeFirst(end + 2)
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let value = line[line.index(after: colon)...]
      fields[String(line[..<colon])] = String(value.hasPrefix(" ") ? value.dropFirst() : value)
    }
    return fields
  }

  private static func handle(_ event: [String: String], _ yield: (ChangeNotice) -> Void) throws {
    let data = Data((event["data"] ?? "").utf8)
    switch event["event"] {
    case "changes":
      do {
        yield(try JSONDecoder().decode(ChangeNotice.self, from: data))
      } catch {
        throw KalendsClientError.malformedResponse("a change notice: \(error)")
      }
    case "sessionEnded":
      let detail = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["detail"] as? String
      throw KalendsClientError.sessionEnded(detail ?? "the app's session ended")
    default:
      break
    }
  }
}
