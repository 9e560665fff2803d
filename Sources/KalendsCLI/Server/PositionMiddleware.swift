import HTTPTypes
import Hummingbird
import Kalends

/// Marks each successful read of an app's data (events, instances, calendars, contacts, groups)
/// with `Kalends-Position`: the log's head before the read, so that what the app read includes
/// every change up to it. An app that starts its change stream after that position
/// (`Last-Event-ID`) misses no change made after its read; it may hear again one it already read,
/// which a refresh absorbs.
///
/// Only those reads carry it: they succeed only for an app with access to what it reads. The
/// document, `whoami`, the authorization status and every refusal carry no position, so that a
/// caller without access — or without identity — cannot watch the log grow as the person writes.
struct PositionMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  let store: Store

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    guard request.method == .get, Self.readsData(request.uri.path) else { return try await next(request, context) }
    let head = try? store.head().position
    var response = try await next(request, context)
    if let head, (200..<300).contains(response.status.code) {
      response.headers[.kalendsPosition] = String(head.rawValue)
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
  /// `Kalends-Position`: the log's head before a read (`PositionMiddleware`).
  static let kalendsPosition = HTTPField.Name("Kalends-Position")!
}
