/// Escapes text for XML character data and attribute values.
enum XMLText {
  /// `text` with `&`, `<`, `>`, `"` replaced by references.
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }
}
