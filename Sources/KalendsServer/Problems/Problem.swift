package import Hummingbird
package import Kalends
package import KalendsFormats

/// An error answered as RFC 9457 problem details (`application/problem+json`), with the category
/// of the failure (the `kalends` command gives each category its exit status).
package struct Problem: HTTPResponseError {
  package let status: HTTPResponse.Status
  package let title: String
  package let detail: String
  package let category: FailureCategory

  /// The problem for a store error: its category, and its HTTP equivalent; a version
  /// conflict (`If-Match`) is 412.
  package init(_ error: StoreError) {
    var stale = false
    if case .calendar(.changedSinceFetched) = error { stale = true }
    if case .contact(.changedSinceFetched) = error { stale = true }
    if case .calendar(.objectConditionFailed) = error { stale = true }
    if stale {
      self.init(
        status: .preconditionFailed, title: "changed since fetched", detail: error.description,
        category: .conflict)
      return
    }
    if case .access(.sessionTerminated(let client, _)) = error {
      // Without the position the library names: apps are never shown the log's positions.
      self.init(
        category: .accessRefused, detail: "the session of \(client) ended: its access changed — open a new session",
        error: error)
      return
    }
    self.init(category: FailureCategory(error.category), detail: error.description, error: error)
  }

  /// The problem for a request the server refused before the store saw it (invalid input, above
  /// all), or a failure of the server itself.
  package init(_ error: any CategorizedFailure) {
    self.init(category: error.category, detail: error.message, error: nil)
  }

  private init(category: FailureCategory, detail: String, error: StoreError?) {
    self.category = category
    self.detail = detail
    switch category {
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
    case .storage: (status, title) = (.serviceUnavailable, "storage failure")
    }
  }

  /// `412`: `what` changed since the version an app named (`If-Match`). It names no version:
  /// an app is shown versions as tags, never the log's positions.
  static func changedSinceFetched(_ what: String) -> Problem {
    Problem(
      status: .preconditionFailed, title: "changed since fetched",
      detail: "\(what) changed since the version named: fetch it again", category: .conflict)
  }

  package init(status: HTTPResponse.Status, title: String, detail: String, category: FailureCategory) {
    self.status = status
    self.title = title
    self.detail = detail
    self.category = category
  }

  package func response(from request: Request, context: some RequestContext) throws -> Response { response }

  /// The response.
  var response: Response {
    let body = JSONValue.object([
      ("type", .string("about:blank")),
      ("title", .string(title)),
      ("status", .number(Int(status.code))),
      ("detail", .string(detail)),
      ("category", .string(category.rawValue)),
    ])
    return Response(
      status: status, headers: [.contentType: "application/problem+json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body.rendered() + "\n")))
  }
}
