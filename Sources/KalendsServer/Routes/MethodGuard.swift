import Foundation
import Hummingbird
import KalendsFormats

/// Answers a method a route does not have with 405 and the methods it has (`Allow`), as RFC 9110
/// asks, instead of the router's 404: the routes and their methods are those of the OpenAPI
/// document (a test checks that every operation it names is a route).
struct MethodGuard: RouterMiddleware {
  typealias Context = ServerContext

  /// A path template's segments (`nil` for a `{parameter}`) and its methods.
  private let routes: [(segments: [String?], methods: Set<String>)]

  init(document: String = OpenAPIDocument.text) {
    let json = try? JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
    let paths = json?["paths"] as? [String: [String: Any]] ?? [:]
    let verbs: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    routes = paths.map { path, item in
      let segments = path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }
      var methods = Set(item.keys.filter(verbs.contains).map { $0.uppercased() })
      if methods.contains("GET") { methods.insert("HEAD") }
      return (segments, methods)
    }
  }

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    let parts = request.uri.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    // A literal segment matches before a parameter: `/v1/contacts/pick` is not `/v1/contacts/{id}`.
    let route = routes.filter { route in
      route.segments.count == parts.count
        && zip(route.segments, parts).allSatisfy { segment, part in segment.map { $0 == part } ?? !part.isEmpty }
    }.max { $0.segments.count { $0 != nil } < $1.segments.count { $0 != nil } }
    if let route, !route.methods.contains(request.method.rawValue) {
      let problem = Problem(
        status: .methodNotAllowed, title: "method not allowed",
        detail: "\(request.uri.path) takes \(route.methods.sorted().joined(separator: ", "))", category: .usage)
      var response = problem.response
      response.headers[.allow] = route.methods.sorted().joined(separator: ", ")
      return response
    }
    return try await next(request, context)
  }
}
