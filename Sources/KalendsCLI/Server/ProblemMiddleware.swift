import Hummingbird
import Kalends
import KalendsCommandSupport

/// Answers the store's and the command line's errors as problem details, whichever route threw
/// them: a typed error never becomes a 500.
struct ProblemMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  func handle(
    _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as StoreError {
      throw Problem(error)
    } catch let error as CLIError {
      throw Problem(error)
    }
  }
}
