/// What a front end refuses in what it was given before the store sees it: a value a person typed
/// or an app sent that Kalends does not take, a missing argument, a file it cannot read. Nothing
/// was changed.
package struct RequestError: CategorizedFailure, CustomStringConvertible {
  package let message: String
  package let category: FailureCategory

  package init(message: String, category: FailureCategory) {
    self.message = message
    self.category = category
  }

  /// A value that is not one Kalends takes.
  package static func invalidInput(_ message: String) -> RequestError {
    RequestError(message: message, category: .invalidInput)
  }

  package var description: String { message }
}
