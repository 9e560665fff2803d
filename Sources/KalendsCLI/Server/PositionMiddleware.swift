import HTTPTypes
import Hummingbird
import Kalends

/// Marks each successful read with `Kalends-Position`: the log's head before the read, so that
/// what the app read includes every change up to it. An app that starts its change stream after
/// that position (`Last-Event-ID`) misses no change made after its read; it may hear again one it
/// already read, which a refresh absorbs.
struct PositionMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  let store: Store

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    guard request.method == .get, request.uri.path != "/v1/changes" else { return try await next(request, context) }
    let head = try? store.head().position
    var response = try await next(request, context)
    if let head, (200..<300).contains(response.status.code) {
      response.headers[.kalendsPosition] = String(head.rawValue)
    }
    return response
  }
}

extension HTTPField.Name {
  /// `Kalends-Position`: the log's head before a read (`PositionMiddleware`).
  static let kalendsPosition = HTTPField.Name("Kalends-Position")!
}
