import Foundation
import Hummingbird
import Kalends
import KalendsFormats

extension StoreServer {
  /// The routes of API version 1 (docs/server.md).
  func router() -> Router<ServerContext> {
    let router = Router(context: ServerContext.self)
    router.add(middleware: MethodGuard())
    router.add(middleware: CredentialMiddleware())
    router.add(middleware: ProblemMiddleware(server: self))
    for frontEnd in frontEnds { router.add(middleware: frontEnd.middleware(serving: self)) }
    router.add(middleware: PositionMiddleware(server: self))
    router.get("v1/openapi.json") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.text)))
    }
    router.get("v1/whoami") { _, context in
      let (client, _, evidence) = try await self.app(context)
      return Self.json(.object([("client", .string(client.id)), ("name", .string(client.name))] + evidence.jsonFields))
    }
    router.get("v1/authorization/:service") { _, context in
      let (_, session, _) = try await self.app(context)
      let service = try Self.service(context)
      let status = try await self.withStore { try session.authorizationStatus(for: service) }
      return Self.json(.object([("service", .string(service.description)), ("status", .string(status.description))]))
    }
    router.post("v1/authorization/:service/request") { request, context in
      let (_, session, evidence) = try await self.app(context)
      let service = try Self.service(context)
      let level = request.uri.queryParameters["level"].map(String.init) ?? "full"
      let prompts = self.prompts
      let status: AuthorizationStatus
      switch level {
      case "full":
        status = try await self.onOwnThread {
          try session.requestFullAccess(to: service, prompter: DeskPrompter(channel: prompts, evidence: evidence))
        }
      case "write-only":
        status = try await self.onOwnThread {
          try session.requestWriteOnlyAccess(to: service, prompter: DeskPrompter(channel: prompts, evidence: evidence))
        }
      case "legacy":
        // `requestAccess(to:)`, the call of apps built before iOS 17 (docs/privacy.md).
        let granted = try await self.onOwnThread {
          try session.requestAccess(to: service, prompter: DeskPrompter(channel: prompts, evidence: evidence))
        }
        let seen = try await self.withStore { try session.authorizationStatus(for: service) }
        return Self.json(
          .object([
            ("service", .string(service.description)), ("status", .string(seen.description)),
            ("granted", .bool(granted)),
          ]))
      default:
        throw Problem(
          status: .badRequest, title: "invalid input",
          detail: "level is full, write-only or legacy, not \"\(level)\"", category: .invalidInput)
      }
      return Self.json(.object([("service", .string(service.description)), ("status", .string(status.description))]))
    }
    router.get("v1/prompts") { _, context in
      try await self.requireOwner(context, "list the consent prompts")
      return Self.json(.array(self.desk.pending.map { .object(Self.fields($0)) }))
    }
    router.post("v1/prompts/:id") { request, context in
      let person = try await self.requireOwner(context, "answer consent prompts")
      let text = request.uri.queryParameters["answer"].map(String.init) ?? ""
      let reply = try await self.reply(text, of: request)
      let id = context.parameters.get("id").flatMap(UInt64.init)
      switch id.map({ self.desk.answer($0, with: reply, by: person) }) ?? .notWaiting {
      case .answered: return Self.json(.object([("id", .number(Int(id ?? 0))), ("answer", .string(text))]))
      case .notWaiting:
        throw Problem(
          status: .notFound, title: "not found",
          detail: "no prompt \(context.parameters.get("id") ?? "") is waiting (answered, timed out, or never asked)",
          category: .notFound)
      case .wrongKind:
        throw Problem(
          status: .badRequest, title: "invalid input",
          detail: "prompt \(id ?? 0) is "
            + (reply.isPick
              ? "an access request: answer allow, write-only, limited or deny"
              : "a contact picker: answer pick or cancel"),
          category: .invalidInput)
      }
    }
    router.get("v1/events") { request, context in
      let use = try await self.app(context, using: .calendars, reading: true)
      let (predicate, zone) = try Self.predicate(request)
      return try await self.streamedEvents(use, predicate, zone)
    }
    router.get("v1/instances") { request, context in
      let use = try await self.app(context, using: .calendars, reading: true)
      let (predicate, _) = try Self.predicate(request)
      let body = try await self.withStore(use) {
        let instances = try use.session.instances(matching: predicate)
        // Built in memory, for speed: bounded, so that one request cannot cost the server gigabytes.
        guard instances.count <= Self.maximumInstances else {
          throw RequestError.invalidInput(
            "the window holds more than \(Self.maximumInstances) instances — ask for a shorter one, or use /v1/events")
        }
        return InstanceJSON.encode(instances)
      }
      return Response(
        status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
    }
    addEventRoutes(to: router)
    addReminderRoutes(to: router)
    addCalendarRoutes(to: router)
    addContactRoutes(to: router)
    addChangeRoutes(to: router)
    return router
  }

  /// The window, calendars and viewer's zone of a range query: `from`, `to`, `tz`, `calendar`.
  static func predicate(_ request: Request) throws -> (EventPredicate, ZoneRules) {
    let (window, zone, calendars) = try Self.window(of: request, required: true)
    let (start, end) = window ?? (0, 0)
    return (EventPredicate(start: start, end: end, calendars: calendars, viewerZone: zone), zone)
  }

  /// The window a query names, with its zone and calendars: `from` and `to` (RFC 3339; a wall-clock
  /// time in `tz`, else in UTC), `to` after `from`, both — or, where not `required`, neither
  /// (`nil`); `calendar` any number of times.
  static func window(
    of request: Request, required: Bool
  ) throws -> (window: (from: Int64, to: Int64)?, zone: ZoneRules, calendars: [ObjectID]) {
    let query = request.uri.queryParameters
    let zone = try DateArgument.zone(query["tz"].map(String.init), option: "tz") ?? .utc
    let calendars = try query.getAll("calendar").map { text throws(RequestError) in
      try ObjectID(argument: String(text), option: "calendar")
    }
    if !required {
      switch (query["from"], query["to"]) {
      case (nil, nil): return (nil, zone, calendars)
      case (_?, _?): break
      default: throw RequestError.invalidInput("give both from and to, or neither")
      }
    }
    let start = try DateArgument(String(query["from"] ?? ""), option: "from", spoken: false).instant(in: zone)
    let end = try DateArgument(String(query["to"] ?? ""), option: "to", spoken: false).instant(in: zone)
    guard start < end else { throw RequestError.invalidInput("to must be after from") }
    return ((start, end), zone, calendars)
  }

  /// The service named in the route; a 404 problem for another name.
  static func service(_ context: ServerContext) throws -> Service {
    let name = context.parameters.get("service") ?? ""
    guard let service = Service(name: name) else {
      throw Problem(
        status: .notFound, title: "not found", detail: "no service \"\(name)\": calendars, reminders or contacts",
        category: .notFound)
    }
    return service
  }

  /// The person's reply in `POST /v1/prompts/ID`: `answer` is `allow`, `write-only`, `limited` or
  /// `deny` to an access request, with the `contact`s of `limited` and the `calendar`s of `allow`;
  /// `pick` (with the one `contact` picked, which must exist) or `cancel` to a contact picker.
  func reply(_ answer: String, of request: Request) async throws -> PromptDesk.Reply {
    let query = request.uri.queryParameters
    func ids(_ name: String) throws -> [ObjectID] {
      do {
        return try query.getAll(name).map { text throws(RequestError) in
          try ObjectID(argument: String(text), option: name)
        }
      } catch {
        throw Problem(error)
      }
    }
    switch answer {
    case "cancel": return .pick(nil)
    case "pick":
      let contacts = try ids("contact")
      guard contacts.count == 1, let picked = contacts.first else {
        throw Problem(
          status: .badRequest, title: "invalid input", detail: "pick names the one contact picked: contact=ID",
          category: .invalidInput)
      }
      let owner = owner
      guard try await withStore({ try owner.contactStore.contact(withID: picked) != nil }) else {
        throw StoreError.contact(.contactNotFound(picked))
      }
      return .pick(picked)
    default:
      guard let consent = ConsentAnswer(rawValue: answer) else {
        throw Problem(
          status: .badRequest, title: "invalid input",
          detail: "answer is allow, write-only, limited or deny (or pick or cancel to a picker), not \"\(answer)\"",
          category: .invalidInput)
      }
      // The person's choice with the answer: contacts for `limited`, calendars for `allow`.
      let calendars = try ids("calendar")
      return .access(
        .init(answer: consent, contacts: try ids("contact"), calendars: calendars.isEmpty ? nil : calendars))
    }
  }

  /// A waiting prompt as `GET /v1/prompts` and `kalends prompts` show it: an access request
  /// (`kind` `access`), or a contact picker (`kind` `pick`, service `contacts`, level `pick`, no
  /// usage description: the picker needs none).
  static func fields(_ pending: PromptDesk.Pending) -> [(String, JSONValue)] {
    let request: ConsentRequest? =
      if case .access(let request) = pending.question { request } else { nil }
    return [
      ("id", .number(Int(pending.id))),
      ("kind", .string(request == nil ? "pick" : "access")),
      ("client", .string(pending.question.client.id)),
      ("name", .string(pending.question.client.name)),
      ("service", .string(request?.service.description ?? Service.contacts.description)),
      ("level", .string(request.map { $0.level == .full ? "full" : "write-only" } ?? "pick")),
      ("usageDescription", .text(request?.usageDescription)),
      ("isUpgrade", .bool(request?.isUpgrade ?? false)),
      ("executable", .text(pending.evidence.executable)),
      ("flatpakApp", .text(pending.evidence.flatpakApp)),
      ("pid", pending.evidence.pid.map { .number(Int($0)) } ?? .null),
      ("tokenId", .text(pending.evidence.tokenID)),
      ("asked", .string(ISO8601DateFormatter().string(from: pending.asked))),
      ("callers", .number(pending.callers)),
    ]
  }

  /// A 200 response of JSON.
  static func json(_ value: JSONValue) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.rendered() + "\n")))
  }
}
