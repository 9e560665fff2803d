import Hummingbird
import Kalends
import KalendsFormats

/// Answers the store's and the front ends' own errors as problem details, whichever route threw
/// them: a typed error never becomes a 500. A call that finds its app's session ended ends it for
/// the app's process.
struct ProblemMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  /// The server, told when a call found its app's session ended.
  let server: StoreServer

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as StoreError {
      if case .access(.sessionTerminated) = error { server.endSession(of: context.channel) }
      throw Problem(error)
    } catch let problem as Problem {
      if problem.title == "session ended" { server.endSession(of: context.channel) }
      throw problem
    } catch let error as any CategorizedFailure {
      throw Problem(error)
    }
  }
}
