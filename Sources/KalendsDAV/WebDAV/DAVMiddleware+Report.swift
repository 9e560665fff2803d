import Hummingbird
import KalendsFormats
import KalendsServer

extension DAVMiddleware {
  /// REPORT (RFC 3253 §3.6): on a calendar its reports (``reportCalendar(_:_:_:_:)``), on an
  /// address book its reports, on the principal its searches; elsewhere `403
  /// DAV:supported-report`. Every report has a body (`400` without).
  func report(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    let target: DAVPath
    switch path {
    case .addressBook, .principal, .calendar: target = path
    default: throw DAVError(.forbidden, .dav("supported-report"), "reports are made on a calendar collection")
    }
    guard let body = try await Self.body(request) else { throw DAVError(.badRequest, nil, "a REPORT needs a body") }
    switch target {
    case .addressBook(let book): return try await reportContacts(body, book: book, context)
    case .calendar(let id): return try await reportCalendar(body, id, request, context)
    default: return try await reportPrincipals(body, context)
    }
  }
}
