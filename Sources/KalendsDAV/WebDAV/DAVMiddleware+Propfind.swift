import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

extension DAVMiddleware {
  /// PROPFIND (RFC 4918 §9.1) at depth 0 or 1; a missing or `infinity` depth is answered as 1,
  /// which is all the DAV space has below a collection.
  func propfind(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    let body = try await Self.body(request)
    if let body, body.name != .dav("propfind") {
      throw DAVError(.badRequest, nil, "a PROPFIND body is a DAV:propfind element, not \(body.name)")
    }
    let selection = PropertySelection(body)
    let depth = request.headers[HTTPField.Name("Depth")!] == "0" ? 0 : 1
    var multistatus = Multistatus()
    switch path {
    case .principal:
      let (client, _, _) = try await server.app(context)
      let positions = server.positions(for: client.id)
      selection.add(.principal(name: client.name), to: &multistatus, positions: positions)
      if depth == 1 { selection.add(.calendarHome, to: &multistatus, positions: positions) }
    case .calendarHome:
      // The app's first look at its calendars: what asks the person, when the app was never asked.
      let use = try await server.app(context, using: .calendars, reading: true, firstUseAsks: true)
      let calendars = try await server.withStore(use) {
        Self.shown(try Self.calendars(of: use.session), to: use.session)
      }
      selection.add(.calendarHome, to: &multistatus, positions: use.positions)
      if depth == 1 {
        for calendar in calendars {
          let state = try await collectionState(calendar.id, selection, use)
          selection.add(.calendar(calendar, state), to: &multistatus, positions: use.positions)
        }
      }
    case .calendar(let id):
      let (calendar, use) = try await self.calendar(id, context, reading: depth == 1)
      let state = try await collectionState(id, selection, use)
      selection.add(.calendar(calendar, state), to: &multistatus, positions: use.positions)
      if depth == 1 {
        let objects = try await server.withStore(use) { try use.session.calendarObjects(inCalendar: id) ?? [] }
        for object in objects {
          selection.add(.object(object, in: id, texts: objectTexts), to: &multistatus, positions: use.positions)
        }
      }
    case .object(let id, let name):
      let (_, use) = try await calendar(id, context, reading: true)
      guard
        let object = try await server.withStore(use, { try use.session.calendarObject(named: name, inCalendar: id) })
      else { throw DAVError(.notFound, nil, "no calendar object \(name) in calendar \(id)") }
      selection.add(.object(object, in: id, texts: objectTexts), to: &multistatus, positions: use.positions)
    case .addressBookHome, .addressBook, .contact:
      return try await propfindContacts(
        path, selection, depth: depth, version: Self.vCardVersion(asked: body), context)
    case .wellKnown, .unknown, .namedCalendar, .namedObject, .pushRegistration:
      throw DAVError(.notFound, nil, "nothing is at \(request.uri.path)")
    }
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }

  /// The collection state of the calendar `id` when `selection` asks for it: its tag from the
  /// calendar's stamp, and a sync token for the head.
  func collectionState(
    _ id: ObjectID, _ selection: PropertySelection, _ use: StoreServer.AppUse
  ) async throws -> DAVResource.CollectionState? {
    let asksPush = Self.asksPush(selection)
    guard selection.asks(XMLName(Namespace.calendarServer, "getctag")) || selection.asks(.dav("sync-token")) || asksPush
    else {
      return nil
    }
    let (stamp, head) = try await server.withStore(use) {
      (try use.session.calendarStamp(inCalendar: id), try use.session.store.head().position)
    }
    guard let stamp else { throw DAVError(.notFound, nil, "no calendar \(id) is among this app's calendars") }
    var state = DAVResource.CollectionState(stamp, use.positions, syncToken: SyncToken.text(head, use.positions))
    if asksPush { state.push = try await pushState(of: id, use) }
    return state
  }
}
