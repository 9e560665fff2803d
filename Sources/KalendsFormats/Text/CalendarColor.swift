/// A calendar's colour as typed or sent, and as stored: `#RRGGBB`, in upper case.
package enum CalendarColor {
  /// `text` as stored; ``RequestError/invalidInput(_:)`` naming `option` for anything but
  /// `#` and six hexadecimal digits.
  package static func parse(_ text: String, option: String) throws(RequestError) -> String {
    let digits = text.dropFirst()
    guard text.first == "#", digits.count == 6, digits.allSatisfy(\.isHexDigit) else {
      throw .invalidInput("\(option): \"\(text)\" is not a colour — write #RRGGBB, such as #1BADF8")
    }
    return text.uppercased()
  }
}
