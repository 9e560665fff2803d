/// An iCalendar component as a `calendar-query` filter sees it (RFC 4791 §9.7): its name, its
/// properties with their parameters and values, its nested components. Built from the text the
/// server serves, so that a filter judges exactly what a client would read.
struct ICSComponent {
  struct Property {
    let name: String
    let parameters: [String: String]
    /// The value, text escapes (`\,`, `\;`, `\n`, `\\`) undone.
    let value: String
  }

  let name: String
  var properties: [Property] = []
  var children: [ICSComponent] = []

  /// The components of `text` (an iCalendar stream: its `VCALENDAR`s).
  static func parse(_ text: String) -> [ICSComponent] {
    var lines: [String] = []
    for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let line = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
      if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
        lines[lines.count - 1] += line.dropFirst()
      } else {
        lines.append(line)
      }
    }
    var stack: [ICSComponent] = [ICSComponent(name: "")]
    for line in lines {
      guard let property = Self.property(line) else { continue }
      if property.name == "BEGIN" {
        stack.append(ICSComponent(name: property.value.uppercased()))
      } else if property.name == "END", stack.count > 1 {
        let done = stack.removeLast()
        stack[stack.count - 1].children.append(done)
      } else {
        stack[stack.count - 1].properties.append(property)
      }
    }
    return stack[0].children
  }

  private static func property(_ line: String) -> Property? {
    var quoted = false
    var colon: String.Index?
    for index in line.indices {
      if line[index] == "\"" { quoted.toggle() }
      if line[index] == ":" && !quoted {
        colon = index
        break
      }
    }
    guard let colon else { return nil }
    let head = line[..<colon].split(separator: ";").map(String.init)
    guard let name = head.first else { return nil }
    var parameters: [String: String] = [:]
    for parameter in head.dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { parameters[pair[0].uppercased()] = String(pair[1]).trimmingQuotes }
    }
    return Property(
      name: name.uppercased(), parameters: parameters, value: unescaped(line[line.index(after: colon)...]))
  }

  private static func unescaped(_ text: Substring) -> String {
    guard text.contains("\\") else { return String(text) }
    var out = ""
    var escaping = false
    for character in text {
      if escaping {
        out.append(character == "n" || character == "N" ? "\n" : character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        out.append(character)
      }
    }
    return out
  }
}

extension String {
  fileprivate var trimmingQuotes: String {
    count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
  }
}
