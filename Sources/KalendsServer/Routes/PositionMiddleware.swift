import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats

/// Marks each successful read of an app's data (events, instances, calendars, contacts, groups)
/// with `Kalends-Position`: a token for the log's head before the read (`AppPositions.token`), so
/// that what the app read includes every change up to it. An app that starts its change stream
/// after that token (`Last-Event-ID`) misses no change made after its read; it may hear again one
/// it already read, which a refresh absorbs.
///
/// The token is sealed for the app, with a fresh nonce each time: two reads with nothing
/// written between them give unrelated tokens, as do two reads with the person's writes between
/// them, so that an app cannot watch the log grow. Only those reads carry one: they succeed only
/// for an app with access to what it reads. The document, `whoami`, the authorization status and
/// every refusal carry none.
struct PositionMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  let server: StoreServer

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    guard request.method == .get, Self.readsData(request.uri.path) else { return try await next(request, context) }
    let head = try? server.owner.store.head().position
    var response = try await next(request, context)
    if let head, (200..<300).contains(response.status.code), let positions = server.positions(on: context.channel) {
      response.headers[.kalendsPosition] = positions.token(head)
    }
    return response
  }
}

extension PositionMiddleware {
  /// The routes that read an app's data.
  static let dataRoutes = ["/v1/events", "/v1/instances", "/v1/calendars", "/v1/contacts", "/v1/groups"]

  /// Whether `path` reads an app's data.
  static func readsData(_ path: String) -> Bool {
    dataRoutes.contains { path == $0 || path.hasPrefix($0 + "/") }
  }
}

extension HTTPField.Name {
  /// `Kalends-Position`: a token for the log's head before a read (`PositionMiddleware`).
  static let kalendsPosition = HTTPField.Name("Kalends-Position")!
}
