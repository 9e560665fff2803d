/// Text from the store — apps' names, executable paths, usage descriptions, titles — made safe to
/// show on a person's terminal: what could move the cursor, rewrite a line or reorder what is read
/// is shown as a visible escape instead of acting.
///
/// An app chooses its executable's path inside its sandbox, and a write-only app chooses the
/// titles of the events it adds; a carriage return, an escape sequence or a right-to-left override
/// in them could make a prompt read "add events" while it asks for full access, or overwrite rows
/// of the person's table. Escaped: the C0 controls (`\r`, `\n`, `\t`, others as `\u{1B}`), DEL,
/// the C1 controls, the Unicode bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029). In a
/// text that needs any escape, a backslash is doubled too, so that an escape shown there is never
/// text the app wrote; text that needs none is shown as it is.
package enum TerminalText {
  /// `text` with every character that could act on a terminal escaped.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\r": result += "\\r"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case _ where needsEscape(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether `scalar` must be escaped.
  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
    default: false
    }
  }
}
