package import Kalends

extension ObjectID {
  /// Parses an identifier given to `option` (or as the `ID` argument).
  package init(argument text: String, option: String = "ID") throws(RequestError) {
    guard let id = ObjectID(text) else {
      throw .invalidInput(
        "\(option): \"\(text)\" is not an identifier — use the id a list or show command prints")
    }
    self = id
  }
}
