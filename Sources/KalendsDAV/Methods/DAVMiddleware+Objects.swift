import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsServer

extension DAVMiddleware {
  /// GET and HEAD of a calendar object: its iCalendar text, with its entity tag; `304` when
  /// `If-None-Match` names it.
  func get(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    if case .contact(let book, let name) = path { return try await getContact(book, name, request, context) }
    guard case .object(let id, let name) = path else {
      throw DAVError(.methodNotAllowed, nil, "a collection has no body to GET: PROPFIND or REPORT it")
    }
    let (_, use) = try await calendar(id, context, reading: true)
    guard let object = try await server.withStore(use, { try use.session.calendarObject(named: name, inCalendar: id) })
    else { throw DAVError(.notFound, nil, "no calendar object \(name) in calendar \(id)") }
    let tag = EntityTag.tag(object.version, use.positions)
    if try EntityTag.condition(.ifNoneMatch, of: request)?.matches(object.version, use.positions) == true {
      return Response(status: .notModified, headers: [.eTag: tag])
    }
    let text = request.method == .head ? "" : object.file.serialized()
    return Response(
      status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .eTag: tag],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  /// PUT of a calendar object: stored under the name the client gave it as one fact in the log
  /// (RFC 4791 §5.3.2), replacing what that name held (a `UID` the calendar holds under another
  /// name is refused with `no-uid-conflict`); `If-Match` and `If-None-Match: *` are checked in the write's
  /// own transaction. `201` when new, `204` when replaced — without an entity tag, since what is
  /// stored is the items, not the client's bytes (RFC 4791 §5.3.4).
  func put(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    if case .contact(let book, let name) = path { return try await putContact(book, name, request, context) }
    guard case .object(let id, let name) = path else {
      throw DAVError(.methodNotAllowed, nil, "PUT stores a calendar object: CALENDAR/NAME.ics")
    }
    let bytes = try await Self.collect(request, upTo: Self.maximumResource)
    let file: ICalendar
    do {
      file = try ICalendar(parsing: bytes)
    } catch {
      throw DAVError(.forbidden, .caldav("valid-calendar-data"), error.description)
    }
    if let skipped = file.skipped.keys.sorted().first {
      throw DAVError(
        .forbidden, .caldav("supported-calendar-component"), "\(skipped) is not stored here: VEVENT and VTODO are")
    }
    let uids = Set(file.events.map(\.externalID) + file.reminders.map(\.externalID))
    // A task asks for reminders access, an event for calendars access, whatever else the
    // calendar holds.
    let (_, use) = try await calendar(
      id, context, reading: false, service: file.events.isEmpty ? .reminders : .calendars)
    let condition = try Self.condition(of: request, use.positions)
    let object = CalendarObject(
      uid: uids.count == 1 ? uids.first! : name, name: name, events: file.events, reminders: file.reminders)
    let created = try await server.withStore(use) {
      try Self.mapped {
        try Self.refusingUIDConflict(.caldav("no-uid-conflict"), href: { DAVPath.object($0, in: id) }) {
          () throws(StoreError) in
          try use.session.putCalendarObject(object, inCalendar: id, condition: condition).created
        }
      }
    }
    return Response(status: created ? .created : .noContent)
  }

  /// DELETE of a calendar object: every item of its `UID` removed in one fact of the log.
  func delete(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    if case .contact(let book, let name) = path { return try await deleteContact(book, name, request, context) }
    guard case .object(let id, let name) = path else {
      throw DAVError(.forbidden, nil, "the principal and the calendar home are not removed")
    }
    let (_, use) = try await calendar(id, context, reading: false)
    let condition = try Self.condition(of: request, use.positions)
    let exists = try await server.withStore(use) {
      try use.session.calendarObject(named: name, inCalendar: id) != nil
    }
    guard exists else { throw DAVError(.notFound, nil, "no calendar object \(name) in calendar \(id)") }
    try await server.withStore(use) {
      try Self.mapped { try use.session.removeCalendarObject(named: name, inCalendar: id, condition: condition) }
    }
    return Response(status: .noContent)
  }

  /// The condition of `If-Match` and `If-None-Match: *` on the object written, as the app of
  /// `positions` is shown versions.
  static func condition(of request: Request, _ positions: AppPositions) throws -> ObjectCondition {
    if let match = try EntityTag.condition(.ifMatch, of: request) {
      return .present(matching: { match.matches($0, positions) })
    }
    if try EntityTag.condition(.ifNoneMatch, of: request) == .any { return .absent }
    return .none
  }
}
