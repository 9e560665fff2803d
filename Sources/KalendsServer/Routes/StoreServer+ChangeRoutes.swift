import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import ServiceLifecycle

extension StoreServer {
  /// `GET /v1/changes`: the change notices the app may hear, as Server-Sent Events.
  func addChangeRoutes(to router: Router<ServerContext>) {
    router.get("v1/changes") { request, context in
      let (client, session, _) = try await self.app(context)
      let positions = self.positionSeal.view(for: client.id)
      try await self.withStore { try session.checkHearsChanges() }
      let start = try Self.resumePosition(request, positions)
      if let start {
        // Refused before the response starts: a position past the head (given before the store
        // was restored from an older backup) is 404, and says nothing of the head.
        try await self.withStore {
          let head = try session.store.head().position
          guard start.rawValue <= head.rawValue + 1 else {
            throw Problem(
              status: .notFound, title: "not found",
              detail: "the position named is past the store's log (restored from an older backup?): "
                + "fetch again what the app shows, and start the stream without one",
              category: .notFound)
          }
        }
      }
      guard let slot = self.streamSlots.take(for: client.id) else {
        throw Problem(
          status: .tooManyRequests, title: "too many change streams",
          detail: "\(client.id) holds \(self.streamSlots.limit) change streams open already: close one",
          category: .conflict)
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
              let token = positions.token(notice.positions.upperBound)
              let event = "id: \(token)\nevent: changes\ndata: \(notice.json(position: token).rendered())\n\n"
              try await writer.write(ByteBuffer(string: event))
            }
          } catch StoreError.access(.sessionTerminated(let client, _)) {
            self.endSession(of: channel)
            let data = JSONValue.object([
              ("client", .string(client)), ("detail", .string("access was changed from outside the app: restart it")),
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

  /// Where a stream starts: after `Last-Event-ID` (the token of the last notice the app heard),
  /// else after `?after=` (a `Kalends-Position` token of a read), else at the next commit. Both
  /// are checked when both are given; a token this app was not given is `400`.
  static func resumePosition(_ request: Request, _ positions: AppPositions) throws -> LogPosition? {
    func opened(_ token: String, _ name: String) throws -> LogPosition {
      guard let position = positions.position(of: token), position.rawValue < UInt64.max else {
        throw Problem(
          status: .badRequest, title: "invalid input",
          detail: "\(name) takes a position token the server gave this app (Kalends-Position, or a notice's id)",
          category: .invalidInput)
      }
      return position.next
    }
    var start: LogPosition?
    if let after = request.uri.queryParameters["after"] { start = try opened(String(after), "after") }
    if let last = request.headers[HTTPField.Name("Last-Event-ID")!] {
      start = try opened(last.trimmingCharacters(in: .whitespaces), "Last-Event-ID")
    }
    return start
  }
}

extension ChangeNotice {
  /// The notice as an app hears it: `{"position":…,"catchUp":…,"refetchAll":…,"changes":[…]}`,
  /// `position` a token for where it ends. Without the log's positions, its head, the records'
  /// times or their origin: those count and date the records of everyone, also those the app may
  /// not see.
  func json(position: String) -> JSONValue {
    .object([
      ("position", .string(position)),
      ("catchUp", .bool(isCatchUp)),
      ("refetchAll", .bool(refetchAll)),
      ("changes", changesJSON),
    ])
  }
}
