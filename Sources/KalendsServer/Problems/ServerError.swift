package import KalendsFormats

/// A failure of the store server itself rather than of a request: a listener or socket it cannot
/// set up, a TLS setting it cannot use, another server it cannot reach. Nothing in the store
/// changed. The command line reports it with the exit status of its ``category``.
package struct ServerError: CategorizedFailure, CustomStringConvertible {
  package let message: String
  package let category: FailureCategory

  package init(message: String, category: FailureCategory) {
    self.message = message
    self.category = category
  }

  /// A setting the server was given that it cannot use.
  package static func invalidInput(_ message: String) -> ServerError {
    ServerError(message: message, category: .invalidInput)
  }

  package var description: String { message }
}
