import Foundation
package import Hummingbird
package import NIOCore

/// A request's context in the store server: Hummingbird's, plus the connection it came on (where
/// the kernel's evidence about a Unix-socket caller comes from) and, over TCP, the app token the
/// request presented.
package struct ServerContext: RequestContext {
  package var coreContext: CoreRequestContextStorage
  /// The connection.
  package let channel: any Channel
  /// Whether the connection is TCP (identified by app tokens) rather than the Unix socket.
  package let isNetwork: Bool
  /// The app token a request presents, set by `CredentialMiddleware`: the secret of
  /// `Authorization: Bearer SECRET`, or the password of `Authorization: Basic` (DAV clients, which
  /// speak only Basic: any user name, the token as the password). Over the Unix socket, an app the
  /// kernel cannot name (a script, whose process is its interpreter) presents one.
  var bearer: String?

  package init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
    if case .unixDomainSocket = source.channel.localAddress {
      isNetwork = false
    } else {
      isNetwork = true
    }
  }
}

/// Reads a request's app token (`Authorization: Bearer SECRET`) into its context, and adds the
/// Bearer challenge (RFC 6750) to a TCP request's 401. The Unix socket's callers are identified by
/// the kernel unless they present a token (an interpreted app).
struct CredentialMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    var context = context
    if let value = request.headers[.authorization] {
      let parts = value.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" {
        context.bearer = String(parts[1].trimmingCharacters(in: .whitespaces))
      } else if parts.count == 2, parts[0].lowercased() == "basic",
        let decoded = Data(base64Encoded: String(parts[1].trimmingCharacters(in: .whitespaces))),
        let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
      {
        context.bearer = String(pair[pair.index(after: colon)...])
      }
    }
    do {
      return try await next(request, context)
    } catch let problem as Problem where context.isNetwork && problem.status == .unauthorized {
      var response = problem.response
      response.headers[.wwwAuthenticate] = "Bearer realm=\"kalends\""
      return response
    }
  }
}
