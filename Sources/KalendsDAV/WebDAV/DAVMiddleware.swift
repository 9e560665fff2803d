import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer
import KalendsSync

/// Answers the requests of the DAV space (``DAVPath``) and passes every other on to the API.
///
/// Every answer about an app's data comes from the app's own session, inside
/// ``StoreServer/withStore(_:_:)``: what the app may not see is absent, a refused call is recorded
/// by the library like any other, and a first use asks the person as an API call would.
struct DAVMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  let server: StoreServer
  /// The text of the calendar objects this server's reports wrote, by their items' versions.
  let objectTexts: ObjectTextCache
  /// Whether push resources on loopback (`http` too) are taken (`kalends serve
  /// --push-allow-loopback`: tests, a distributor on the same machine).
  var allowsLoopbackPush = false
  /// The registrations held back during an app's write that names them in `Push-Dont-Notify`
  /// (shared with the server's push delivery); `nil` where nothing delivers pushes.
  var pushHolds: PushHolds?

  /// The largest XML request body read (PROPFIND, REPORT).
  static let maximumBody = 256 * 1024
  /// The largest calendar object a PUT may store (`max-resource-size`).
  static let maximumResource = 1 << 20
  /// The methods of the DAV space.
  static let methods = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL, POST"

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    // The server's root answers PROPFIND and REPORT as the principal: where a client given only the
    // host and port looks for `current-user-principal` (RFC 5397) and searches principals (RFC 3744).
    // Every other method there is the API's.
    let isRoot = request.uri.path == "/" && ["PROPFIND", "OPTIONS", "REPORT"].contains(request.method.rawValue)
    guard let path = isRoot ? .principal : DAVPath(request.uri.path) else { return try await next(request, context) }
    do {
      return try await answer(request, path, context)
    } catch {
      return response(for: error, context)
    }
  }

  private func answer(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    if path == .wellKnown {
      // 301, as RFC 6764 §5 lists (301, 303 or 307) and Apple's CalDAVTester expects: older clients
      // do not follow a 308 for PROPFIND; a 302 python caldav follows as a GET.
      return Response(status: .movedPermanently, headers: [.location: DAVPath.root])
    }
    switch path {
    case .namedCalendar(let name), .namedObject(let name, _):
      // A calendar the client names by a name of its own: the calendar this app made under that
      // name, else one the person named so; never another app's (``calendar(named:_:)``), so a
      // name is free to make whoever else holds it, and making it reveals nothing of them.
      let id = try await calendar(named: name, context)
      if ["MKCALENDAR", "MKCOL"].contains(request.method.rawValue), case .namedCalendar = path {
        guard id == nil else {
          throw DAVError(.methodNotAllowed, .dav("resource-must-be-null"), "a calendar is already at \(name)")
        }
        return try await mkcalendar(request, .calendar(ObjectID.random()), context, name: name)
      }
      guard let id else { throw DAVError(.notFound, nil, "no calendar \(name) is among this app's calendars") }
      let resolved: DAVPath =
        if case .namedObject(_, let object) = path { .object(id, name: object) } else { .calendar(id) }
      return try await DAVPath.$requestName.withValue((id, name)) { try await answer(request, resolved, context) }
    default: break
    }
    if path == .unknown {
      if ["MKCALENDAR", "MKCOL"].contains(request.method.rawValue) {
        if request.uri.path.hasPrefix(DAVPath.addressBookHomePath) {
          throw DAVError(
            .forbidden, .dav("valid-resourcetype"), "a new address book is made at \(DAVPath.addressBookHomePath)NAME/")
        }
        throw DAVError(
          .forbidden, nil, "a new calendar is made at \(DAVPath.calendarHomePath)NAME/")
      }
      throw DAVError(.notFound, nil, "nothing is at \(request.uri.path)")
    }
    if let holds = pushHolds, let named = Self.pushDontNotify(request),
      Self.writeMethods.contains(request.method.rawValue),
      let session = try? await server.app(context).1
    {
      return try await holds.withholding(named, of: session) { try await dispatch(request, path, context) }
    }
    return try await dispatch(request, path, context)
  }

  /// The methods that write.
  static let writeMethods: Set<String> = ["PUT", "DELETE", "PROPPATCH", "MKCALENDAR", "MKCOL"]

  private func dispatch(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    switch request.method.rawValue {
    case "OPTIONS":
      return Response(
        status: .ok,
        headers: [
          HTTPField.Name("DAV")!: "1, 3, calendar-access, addressbook, extended-mkcol, webdav-push",
          .allow: Self.methods,
          .contentLength: "0",
        ])
    case "PROPFIND": return try await propfind(request, path, context)
    case "REPORT": return try await report(request, path, context)
    case "GET", "HEAD": return try await get(request, path, context)
    case "PUT": return try await put(request, path, context)
    case "POST": return try await registerPush(request, path, context)
    case "DELETE":
      if case .pushRegistration(let id) = path { return try await unregisterPush(id, context) }
      if case .calendar(let id) = path { return try await deleteCalendar(id, context) }
      if case .addressBook(let book) = path { return try await deleteAddressBook(book, context) }
      return try await delete(request, path, context)
    case "MKCALENDAR", "MKCOL":
      if case .addressBook(let book) = path { return try await mkcolAddressBook(book, request, context) }
      return try await mkcalendar(request, path, context)
    case "PROPPATCH": return try await proppatch(request, path, context)
    default:
      var response = Self.xml(
        DAVError(.methodNotAllowed, nil, "\(request.method.rawValue) is not served here").body,
        status: .methodNotAllowed)
      response.headers[.allow] = Self.methods
      return response
    }
  }

  /// The response for a refusal: a `DAV:error` body, with the precondition when one applies, and
  /// over TCP the Basic challenge on a 401 (DAV clients speak Basic; the token is the password).
  private func response(for error: any Error, _ context: ServerContext) -> Response {
    let refusal: DAVError
    switch error {
    case let error as DAVError: refusal = error
    case let error as XMLError: refusal = DAVError(.badRequest, nil, error.description)
    case let error as StoreError: refusal = Self.refusal(error)
    case let problem as Problem:
      if problem.title == "session ended" { server.endSession(of: context.channel) }
      refusal = DAVError(
        problem.status, problem.status == .forbidden ? .dav("need-privileges") : nil, problem.detail)
    case let error as any CategorizedFailure:
      let problem = Problem(error)
      refusal = DAVError(problem.status, nil, problem.detail)
    default:
      refusal = DAVError(.internalServerError, nil, "the server failed: \(error)")
    }
    var response = Self.xml(refusal.body, status: refusal.status)
    if refusal.status == .unauthorized && context.isNetwork {
      response = Self.xml(
        DAVError(
          .unauthorized, nil, refusal.message + " — a DAV client gives the app's token as its password, any user name"
        ).body, status: .unauthorized)
      response.headers[.wwwAuthenticate] = "Basic realm=\"kalends\", charset=\"UTF-8\""
    }
    return response
  }

  /// The DAV refusal of a store error: its HTTP status as the API gives it, and the CalDAV
  /// precondition it fails.
  static func refusal(_ error: StoreError) -> DAVError {
    let problem = Problem(error)
    let precondition: XMLName? =
      switch error {
      case .iCalendar: .caldav("valid-calendar-data")
      case .calendar(.invalidCalendarObject): .caldav("valid-calendar-object-resource")
      case .calendar(.calendarDoesNotAllowEvents), .calendar(.calendarDoesNotAllowReminders):
        .caldav("supported-calendar-component")
      case .access: .dav("need-privileges")
      case .calendar(.changesUnavailable): .dav("valid-sync-token")
      default: nil
      }
    let status: HTTPResponse.Status =
      switch error {
      case .iCalendar, .calendar(.invalidCalendarObject), .calendar(.calendarDoesNotAllowEvents),
        .calendar(.calendarDoesNotAllowReminders), .calendar(.changesUnavailable):
        .forbidden
      default: problem.status
      }
    return DAVError(status, precondition, problem.detail)
  }

  /// Runs the write `body`; a `UID` another resource of the collection holds is refused (`409`)
  /// with `precondition` holding the `DAV:href` of that resource (`href` of its name), as RFC 4791
  /// §5.3.2.1 and RFC 6352 §6.3.2.1 ask.
  static func refusingUIDConflict<T>(
    _ precondition: XMLName, href: (String) -> String, _ body: () throws(StoreError) -> T
  ) throws -> T {
    do {
      return try body()
    } catch .calendar(.uidInUse(let uid, let holder)) {
      let at = href(holder)
      throw DAVError(.conflict, precondition, "UID \(uid) is already stored at \(at)", href: at)
    }
  }

  /// Runs `body`, turning the store's refusals into DAV refusals before the server's own mapping
  /// loses their preconditions.
  static func mapped<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as StoreError {
      if case .access = error { throw error }
      throw refusal(error)
    }
  }

  /// An XML response.
  static func xml(_ text: String, status: HTTPResponse.Status) -> Response {
    Response(
      status: status, headers: [.contentType: "application/xml; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  /// The request's XML body, parsed; `nil` when it has none.
  static func body(_ request: Request) async throws -> XMLElement? {
    let bytes = try await collect(request, upTo: maximumBody)
    guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
    return try XMLReader.parse(bytes)
  }

  /// The request's body, refused (413) past `limit` bytes.
  static func collect(_ request: Request, upTo limit: Int) async throws -> [UInt8] {
    do {
      let buffer = try await request.body.collect(upTo: limit)
      return Array(buffer.readableBytesView)
    } catch {
      throw DAVError(.contentTooLarge, .caldav("max-resource-size"), "the body is larger than \(limit) bytes")
    }
  }

  /// The identifier of the calendar the app on `context` finds at `name`, among the calendars it
  /// sees (its event calendars; its reminder lists when it holds reminders access): the one it made
  /// under that name (``EventCalendar/resourceOwner``), else one the person gave that name; `nil`
  /// when there is none. A name another app made resolves only for that app: no app can make
  /// another client's name resolve to its own calendar.
  func calendar(named name: String, _ context: ServerContext) async throws -> ObjectID? {
    let session = try await server.app(context).1
    return try await server.withStore { Self.resolve(name, among: try Self.calendars(of: session), for: session) }
  }

  /// The calendar among `calendars` (those `session` sees) that `session` finds at `name`: the one
  /// its app made under that name, else the first one the person gave that name.
  static func resolve(_ name: String, among calendars: [EventCalendar], for session: EventStore) -> ObjectID? {
    let app: String? = if case .client(let client) = session.actor { client } else { nil }
    let holders = calendars.filter { $0.resourceName == name }
    let own = app.flatMap { app in holders.first(where: { $0.resourceOwner == app }) }
    return (own ?? holders.first(where: { $0.resourceOwner == nil }))?.id
  }

  /// `calendars` (those `session` sees) as `session` is shown them: each keeps its
  /// ``EventCalendar/resourceName``, and so its href by name, only where that name resolves for
  /// `session` to it (``resolve(_:among:for:)``); any other is shown by its identifier — another
  /// app's name, or a name two calendars hold, is never one href for two calendars.
  static func shown(_ calendars: [EventCalendar], to session: EventStore) -> [EventCalendar] {
    var resolved: [String: ObjectID] = [:]
    for name in Set(calendars.compactMap(\.resourceName)) {
      resolved[name] = resolve(name, among: calendars, for: session)
    }
    return calendars.map { calendar in
      var shown = calendar
      if let name = calendar.resourceName, resolved[name] != calendar.id { shown.resourceName = nil }
      return shown
    }
  }

  /// The calendars the calendar home shows `session`: its event calendars by its calendars access,
  /// and its reminder lists only when it already holds reminders access — a calendar program is
  /// not refused for a service it never asked for. The birthdays calendar is not among them: its
  /// events are derived from the contacts at each read, with no resources or sync history of their
  /// own to serve (docs/dav.md).
  static func calendars(of session: EventStore) throws -> [EventCalendar] {
    let events = try session.calendars(for: .events).filter { $0.source.kind != .birthdays }
    guard try session.authorizationStatus(for: .reminders) == .fullAccess else { return events }
    let ids = Set(events.map(\.id))
    return events + (try session.calendars(for: .reminders).filter { !ids.contains($0.id) })
  }

  /// The `nresults` of a report's `limit` (`DAV:` or `CARDDAV:`, by `name`'s namespace); `nil`
  /// without one, refused (`400`) unless a positive number.
  static func limit(_ report: XMLElement, _ name: (String) -> XMLName) throws -> Int? {
    guard let text = report.child(name("limit"))?.child(name("nresults"))?.text else { return nil }
    guard let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), count > 0 else {
      throw DAVError(.badRequest, nil, "\(name("nresults")) is a positive number, not \(text)")
    }
    return count
  }

  /// The calendar `id` as the app on `context` sees it, and the app's use of `service` (by
  /// default the calendar's: events, else reminders; for a calendar of both, the one the app
  /// holds, events when it holds neither) to read (`reading`) or write. The calendar is read
  /// without asking the person: the app's first request (its calendar home) asks, and a write of
  /// the other kind of item (a task PUT by a calendars-only program) asks for that service.
  func calendar(
    _ id: ObjectID, _ context: ServerContext, reading: Bool, service asked: Service? = nil
  ) async throws -> (EventCalendar, StoreServer.AppUse) {
    let app = try await server.app(context)
    let session = app.1
    let found = try await server.withStore { () throws -> EventCalendar? in
      guard let calendar = try session.calendar(withID: id), calendar.source.kind != .birthdays else { return nil }
      guard calendar.resourceName != nil else { return calendar }
      return Self.shown(try Self.calendars(of: session), to: session).first { $0.id == id } ?? calendar
    }
    guard let calendar = found else {
      throw DAVError(.notFound, nil, "no calendar \(id) is among this app's calendars")
    }
    var service: Service = calendar.allowedEntityTypes.contains(.events) ? .calendars : .reminders
    if let asked, calendar.allowedEntityTypes.contains(asked == .calendars ? .events : .reminders) {
      service = asked
    } else if calendar.allowedEntityTypes == [.events, .reminders] {
      let kinds = try await server.withStore { try session.readableKinds(of: calendar) }
      if !kinds.contains(.events) { service = .reminders }
    }
    return (calendar, server.use(app, of: service, reading: reading, firstUseAsks: true))
  }
}
