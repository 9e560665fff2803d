import Foundation
import KalendsCommandSupport

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

  /// Writes the page `html` to `path`, replacing any file there; returns its size in bytes.
  static func write(page html: String, to path: String) throws -> Int {
    let page = Data(html.utf8)
    guard FileManager.default.createFile(atPath: path, contents: page) else {
      throw CLIError(message: "cannot write \(path)", status: .storage)
    }
    return page.count
  }

  /// JSON text made safe inside a `<script>` element: `<` escaped so that no `</script>` closes it.
  static func scriptJSON(_ json: String) -> String { json.replacingOccurrences(of: "<", with: "\\u003c") }
}
