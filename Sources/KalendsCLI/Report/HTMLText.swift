import Foundation

/// Text made safe for HTML: in element content and in double-quoted attribute values.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// JSON text made safe inside a `<script>` element: `<` escaped so that no `</script>` closes it.
  static func scriptJSON(_ json: String) -> String { json.replacingOccurrences(of: "<", with: "\\u003c") }
}
