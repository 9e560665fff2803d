import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
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
    return try await getMember(name, in: collection(id, use), request)
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
    let object = CalendarObject(
      uid: uids.count == 1 ? uids.first! : name, name: name, events: file.events, reminders: file.reminders)
    return try await putMember(object, named: name, in: collection(id, use), request)
  }

  /// DELETE of a calendar object: every item of its `UID` removed in one fact of the log.
  func delete(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    if case .contact(let book, let name) = path { return try await deleteContact(book, name, request, context) }
    guard case .object(let id, let name) = path else {
      throw DAVError(.forbidden, nil, "the principal and the calendar home are not removed")
    }
    let (_, use) = try await calendar(id, context, reading: false)
    return try await deleteMember(name, in: collection(id, use), request)
  }

  /// Calendar `id` as a collection of the app of `use`, for a request on one of its objects.
  private func collection(_ id: ObjectID, _ use: StoreServer.AppUse) -> CalendarCollection {
    CalendarCollection(id: id, use: use, href: DAVPath.calendar(id), expand: nil, texts: objectTexts)
  }
}
