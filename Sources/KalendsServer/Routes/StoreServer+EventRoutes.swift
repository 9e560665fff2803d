import Foundation
import Hummingbird
import Kalends
import KalendsFormats

extension StoreServer {
  /// The largest request body accepted.
  static let maximumBody = 64 * 1024

  /// The routes that read and change single events, with their versions as entity tags.
  func addEventRoutes(to router: Router<ServerContext>) {
    router.post("v1/events") { request, context in
      let use = try await self.app(context, using: .calendars, reading: false)
      let edit = try EventEdit(json: try await Self.body(request))
      let saved = try await self.withStore(use) { () throws -> Kalends.Event in
        var event = Kalends.Event(calendarID: nil, title: "", start: nil, end: nil, timeZone: nil)
        try edit.apply(to: &event)
        return try use.session.save(event, span: .thisEvent)
      }
      return Self.event(saved, status: .created, use.positions)
    }
    router.get("v1/events/:id") { request, context in
      let use = try await self.app(context, using: .calendars, reading: true)
      let id = try Self.eventID(context)
      let occurrence = request.uri.queryParameters["occurrence"].map(String.init)
      let event = try await self.withStore(use) {
        try EventLookup.fetch(id, occurrence: occurrence, in: use.session, spoken: false)
      }
      if try EntityTag.condition(.ifNoneMatch, of: request)?.matches(event.version, use.positions) == true {
        return Response(status: .notModified, headers: [.eTag: EntityTag.tag(event.version, use.positions)])
      }
      return Self.event(event, status: .ok, use.positions)
    }
    router.patch("v1/events/:id") { request, context in
      let use = try await self.app(context, using: .calendars, reading: false)
      let id = try Self.eventID(context)
      let edit = try EventEdit(json: try await Self.body(request))
      let (occurrence, span) = try Self.target(request)
      let expected = try Self.expectedVersion(request)
      let saved = try await self.withStore(use) { () throws -> Kalends.Event in
        var event = try EventLookup.fetch(id, occurrence: occurrence, in: use.session, spoken: false)
        try Self.check(expected, event, use.positions)
        try edit.apply(to: &event)
        return try use.session.save(event, span: try Self.span(span, for: event))
      }
      return Self.event(saved, status: .ok, use.positions)
    }
    router.delete("v1/events/:id") { request, context in
      let use = try await self.app(context, using: .calendars, reading: false)
      let id = try Self.eventID(context)
      let (occurrence, span) = try Self.target(request)
      let expected = try Self.expectedVersion(request)
      try await self.withStore(use) {
        let event = try EventLookup.fetch(id, occurrence: occurrence, in: use.session, spoken: false)
        try Self.check(expected, event, use.positions)
        try use.session.remove(event, span: try Self.span(span, for: event))
      }
      return Response(status: .noContent)
    }
  }

  /// The request's JSON object body, at most ``maximumBody`` bytes.
  static func body(_ request: Request) async throws -> [String: Any] {
    let bytes = try await request.body.collect(upTo: maximumBody)
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any] else {
      throw Problem(
        status: .badRequest, title: "invalid input", detail: "the body must be a JSON object", category: .invalidInput
      )
    }
    return object
  }

  static func eventID(_ context: ServerContext) throws -> ObjectID {
    do {
      return try ObjectID(argument: context.parameters.get("id") ?? "", option: "id")
    } catch {
      throw Problem(error)
    }
  }

  /// `occurrence` and `span` of the query.
  static func target(_ request: Request) throws -> (String?, SpanArgument?) {
    let query = request.uri.queryParameters
    let span = try query["span"].map { text in
      guard let span = SpanArgument(rawValue: String(text)) else {
        throw Problem(
          status: .badRequest, title: "invalid input", detail: "span is this or future, not \"\(text)\"",
          category: .invalidInput)
      }
      return span
    }
    return (query["occurrence"].map(String.init), span)
  }

  /// The span to change `event` with: the one given, which an occurrence needs; else the whole.
  static func span(_ given: SpanArgument?, for event: Kalends.Event) throws -> Span {
    if let given { return given.span }
    guard event.occurrenceDate == nil else {
      throw RequestError.invalidInput("span: an occurrence needs span=this or span=future")
    }
    return .futureEvents
  }

  /// What `If-Match` names; `nil` without it (a `400` problem when malformed).
  static func expectedVersion(_ request: Request) throws -> EntityTag.Condition? {
    try EntityTag.condition(.ifMatch, of: request)
  }

  /// Refuses (412) when `event` is no longer at a version the caller names, as the app of
  /// `positions` is shown versions.
  static func check(_ expected: EntityTag.Condition?, _ event: Kalends.Event, _ positions: AppPositions) throws {
    try expected?.require(event.version, positions, of: "event \(event.id)")
  }

  /// An event with its version, as the app of `positions` is shown it, as the entity tag and in
  /// the JSON.
  static func event(_ event: Kalends.Event, status: HTTPResponse.Status, _ positions: AppPositions) -> Response {
    versioned(event.jsonFields, event.version, status: status, positions)
  }

  /// An object's JSON `fields` as the response body, its `version` as the app of `positions` is
  /// shown it both as the entity tag and in the JSON.
  static func versioned(
    _ fields: [(String, JSONValue)], _ version: LogPosition, status: HTTPResponse.Status, _ positions: AppPositions
  ) -> Response {
    let sealed = positions.sealing(fields, version: version)
    return Response(
      status: status, headers: [.contentType: "application/json", .eTag: EntityTag.tag(version, positions)],
      body: ResponseBody(byteBuffer: ByteBuffer(string: JSONValue.object(sealed).rendered() + "\n")))
  }
}
