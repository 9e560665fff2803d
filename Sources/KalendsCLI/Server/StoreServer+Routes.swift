import Hummingbird
import Kalends
import KalendsCommandSupport

extension StoreServer {
  /// The routes of API version 1 (docs/server.md).
  func router() -> Router<ServerContext> {
    let router = Router(context: ServerContext.self)
    router.get("v1/whoami") { _, context in
      let (client, _, evidence) = try await self.app(context)
      return Self.json(
        .object([
          ("client", .string(client.id)),
          ("name", .string(client.name)),
          ("uid", .number(Int(evidence.uid))),
          ("pid", .number(Int(evidence.pid))),
          ("executable", .text(evidence.executable)),
          ("executableSha256", .text(evidence.executableSHA256.map(FileDigest.hex))),
          ("flatpakApp", .text(evidence.flatpakApp)),
        ]))
    }
    router.get("v1/authorization/:service") { _, context in
      let (_, session, _) = try await self.app(context)
      let name = context.parameters.get("service") ?? ""
      guard let service = Service(name: name) else {
        throw Problem(
          status: .notFound, title: "not found", detail: "no service \"\(name)\": calendars, reminders or contacts",
          exitStatus: .notFound)
      }
      let status = try await self.withStore { try session.authorizationStatus(for: service) }
      return Self.json(.object([("service", .string(service.description)), ("status", .string(status.description))]))
    }
    router.get("v1/calendars") { _, context in
      let (_, session, _) = try await self.app(context)
      let calendars = try await self.withStore { try session.calendars(for: .events) }
      return Self.json(.array(calendars.map { .object($0.jsonFields) }))
    }
    router.get("v1/events") { request, context in
      let (_, session, _) = try await self.app(context)
      let query = request.uri.queryParameters
      let zone: ZoneRules
      let start: Int64
      let end: Int64
      let calendars: [ObjectID]
      do {
        zone = try DateArgument.zone(query["tz"].map(String.init)) ?? .utc
        start = try DateArgument(String(query["from"] ?? ""), option: "from").instant(in: zone)
        end = try DateArgument(String(query["to"] ?? ""), option: "to").instant(in: zone)
        calendars = try query.getAll("calendar").map { text throws(CLIError) in
          try ObjectID(argument: String(text), option: "calendar")
        }
      } catch let error as CLIError {
        throw Problem(status: .badRequest, title: "invalid input", detail: error.message, exitStatus: .invalidInput)
      }
      guard start < end else {
        throw Problem(
          status: .badRequest, title: "invalid input", detail: "to must be after from", exitStatus: .invalidInput)
      }
      let predicate = EventPredicate(start: start, end: end, calendars: calendars, viewerZone: zone)
      let events = try await self.withStore { try session.events(matching: predicate) }
      return Self.json(.array(events.map { .object(KalendsCommand.Events.fields($0, zone)) }))
    }
    return router
  }

  /// A 200 response of JSON.
  static func json(_ value: JSONValue) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.rendered() + "\n")))
  }
}
