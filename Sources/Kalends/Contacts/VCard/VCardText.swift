/// The value syntax vCard adds to iCalendar's TEXT (RFC 6350 §3.4): structured values whose
/// components are separated by unescaped semicolons (`N`, `ADR`, `ORG`).
enum VCardText {
  /// The components of a structured value, each unescaped (a component's own comma-separated
  /// values stay joined by commas).
  static func components(_ text: String) -> [String] {
    var parts: [String] = []
    var current = text.startIndex
    var escaping = false
    var index = current
    while index < text.endIndex {
      let character = text[index]
      if escaping {
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == ";" {
        parts.append(ICalendarText.unescaped(text[current..<index]))
        current = text.index(after: index)
      }
      index = text.index(after: index)
    }
    parts.append(ICalendarText.unescaped(text[current...]))
    return parts
  }

  /// A structured value from its components, each escaped.
  static func structured(_ components: [String]) -> String {
    components.map(ICalendarText.escaped).joined(separator: ";")
  }

  /// The identifier a `MEMBER` value names: `urn:uuid:X` gives `X`'s full text as written after
  /// the scheme, so that it meets the member's `UID` written either way.
  static func memberUID(_ value: String) -> String {
    value.lowercased().hasPrefix("urn:uuid:") ? String(value.dropFirst(9)) : value
  }

  /// A `UID` as `MEMBER` compares it: without a `urn:uuid:` prefix.
  static func bareUID(_ uid: String) -> String { memberUID(uid) }
}
