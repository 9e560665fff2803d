import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsCommandSupport
import ServiceLifecycle

extension StoreServer {
  /// `GET /v1/changes`: the change notices the app may hear, as Server-Sent Events.
  func addChangeRoutes(to router: Router<ServerContext>) {
    router.get("v1/changes") { request, context in
      let (client, session, _) = try await self.app(context)
      try await self.withStore { try session.checkHearsChanges() }
      let start = try Self.resumePosition(request)
      if let start {
        // Refused before the response starts: a position past the head (a store restored from an
        // older backup, or a made-up one) is 404, as `watch --from` answers it.
        try await self.withStore {
          let head = try session.store.head().position
          guard start.rawValue <= head.rawValue + 1 else { throw StoreError.recordNotFound(start, head: head) }
        }
      }
      guard let slot = self.streamSlots.take(for: client.id) else {
        throw Problem(
          status: .tooManyRequests, title: "too many change streams",
          detail: "\(client.id) holds \(self.streamSlots.limit) change streams open already: close one",
          exitStatus: .conflict)
      }
      context.channel.closeFuture.whenComplete { _ in slot.free() }
      let stream = session.changes(from: start)
      let channel = context.channel
      return Response(
        status: .ok,
        headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
        body: ResponseBody { writer in
          defer { slot.free() }
          // An SSE comment, which clients ignore: the stream is open, and will carry every change
          // committed from now on (a signal for those who wait for it, and for proxies).
          try await writer.write(ByteBuffer(string: ": open\n\n"))
          // The stream ends with the server's graceful shutdown (the notices then end), when the
          // app disconnects (a write fails), or with the app's session (its access changed from
          // outside, or its token revoked).
          do {
            for try await notice in stream.cancelOnGracefulShutdown() {
              let event =
                "id: \(notice.positions.upperBound.rawValue)\nevent: changes\ndata: \(notice.json.rendered())\n\n"
              try await writer.write(ByteBuffer(string: event))
            }
          } catch StoreError.access(.sessionTerminated(let client, let position)) {
            self.endSession(of: channel)
            let data = JSONValue.object([
              ("client", .string(client)), ("at", .number(Int(position.rawValue))),
              ("detail", .string("access was changed from outside the app: restart it")),
            ])
            try await writer.write(ByteBuffer(string: "event: sessionEnded\ndata: \(data.rendered())\n\n"))
          } catch StoreError.access(.tokenRevoked(let client, let token)) {
            let data = JSONValue.object([
              ("client", .string(client)), ("token", .string(token)),
              ("detail", .string("the app's token was revoked")),
            ])
            try await writer.write(ByteBuffer(string: "event: sessionEnded\ndata: \(data.rendered())\n\n"))
          }
          try await writer.finish(nil)
        })
    }
  }

  /// Where a stream starts: after `Last-Event-ID` (the last position the app heard), else at
  /// `?from=`, else at the next commit. Both are checked when both are given.
  static func resumePosition(_ request: Request) throws -> LogPosition? {
    var start: LogPosition?
    if let from = request.uri.queryParameters["from"] {
      guard let position = UInt64(from), position >= 1 else {
        throw Problem(
          status: .badRequest, title: "invalid input", detail: "from is a log position, 1 or more",
          exitStatus: .invalidInput)
      }
      start = LogPosition(position)
    }
    if let last = request.headers[HTTPField.Name("Last-Event-ID")!] {
      guard let position = UInt64(last.trimmingCharacters(in: .whitespaces)), position < UInt64.max else {
        throw Problem(
          status: .badRequest, title: "invalid input", detail: "Last-Event-ID is a log position",
          exitStatus: .invalidInput)
      }
      start = LogPosition(position + 1)
    }
    return start
  }
}
