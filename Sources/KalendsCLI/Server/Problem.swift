import Hummingbird
import Kalends
import KalendsCommandSupport

/// An error answered as RFC 9457 problem details (`application/problem+json`), with the exit
/// status the `kalends` command gives for the same failure.
struct Problem: HTTPResponseError {
  let status: HTTPResponse.Status
  let title: String
  let detail: String
  let exitStatus: ExitStatus

  /// The problem for a store error: the CLI's exit class, and its HTTP equivalent; a version
  /// conflict (`If-Match`) is 412.
  init(_ error: StoreError) {
    var stale = false
    if case .calendar(.changedSinceFetched) = error { stale = true }
    if case .contact(.changedSinceFetched) = error { stale = true }
    if stale {
      self.init(
        status: .preconditionFailed, title: "changed since fetched", detail: error.description,
        exitStatus: .conflict)
      return
    }
    if case .access(.sessionTerminated(let client, _)) = error {
      // Without the position the library names: apps are never shown the log's positions.
      self.init(
        exit: .accessRefused, detail: "the session of \(client) ended: its access changed — open a new session",
        error: error)
      return
    }
    self.init(exit: ExitStatus(error.category), detail: error.description, error: error)
  }

  /// The problem for a command-line error (invalid input, above all).
  init(_ error: CLIError) {
    self.init(exit: error.status, detail: error.message, error: nil)
  }

  private init(exit: ExitStatus, detail: String, error: StoreError?) {
    exitStatus = exit
    self.detail = detail
    switch exit {
    case .invalidInput, .usage: (status, title) = (.badRequest, "invalid input")
    case .notFound: (status, title) = (.notFound, "not found")
    case .conflict: (status, title) = (.conflict, "conflict")
    case .accessRefused:
      if case .access(.sessionTerminated)? = error {
        (status, title) = (.unauthorized, "session ended")
      } else if case .access(.tokenRevoked)? = error {
        (status, title) = (.unauthorized, "token revoked")
      } else {
        (status, title) = (.forbidden, "access refused")
      }
    case .integrity: (status, title) = (.internalServerError, "integrity failure")
    case .storage, .success: (status, title) = (.serviceUnavailable, "storage failure")
    }
  }

  /// `412`: `what` changed since the version an app named (`If-Match`). It names no version:
  /// an app is shown versions as tags, never the log's positions.
  static func changedSinceFetched(_ what: String) -> Problem {
    Problem(
      status: .preconditionFailed, title: "changed since fetched",
      detail: "\(what) changed since the version named: fetch it again", exitStatus: .conflict)
  }

  init(status: HTTPResponse.Status, title: String, detail: String, exitStatus: ExitStatus) {
    self.status = status
    self.title = title
    self.detail = detail
    self.exitStatus = exitStatus
  }

  func response(from request: Request, context: some RequestContext) throws -> Response { response }

  /// The response.
  var response: Response {
    let body = JSONValue.object([
      ("type", .string("about:blank")),
      ("title", .string(title)),
      ("status", .number(Int(status.code))),
      ("detail", .string(detail)),
      ("exitStatus", .number(Int(exitStatus.rawValue))),
    ])
    return Response(
      status: status, headers: [.contentType: "application/problem+json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body.rendered() + "\n")))
  }
}
