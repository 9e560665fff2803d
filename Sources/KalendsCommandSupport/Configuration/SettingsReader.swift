/// Reads the part of TOML 1.0 a settings file is made of: top-level `key = value` lines, comments
/// and blank lines, keys bare or quoted, values any of TOML's four kinds of string.
///
/// Every string is read as TOML reads it (escapes, `\u`/`\U` scalars, multi-line strings with their
/// first newline trimmed and line-ending backslashes). Anything else TOML allows — a table, a dotted
/// key, a number, a boolean, a date, an array — is no setting Kalends has: it is reported as a
/// ``Entry/Value/other(_:)`` value of that kind, or as an error, rather than read. Input that is not
/// TOML is an error naming its line and column (both from 1, the column in characters), as
/// Python's `tomllib` names them.
///
/// Kalends reads this part of TOML itself rather than through a TOML library: six strings do not
/// justify the C++ parser (toml++, through TOMLKit) that every fresh build of `kalends` would compile.
struct SettingsReader {
  /// A `key = value` line.
  struct Entry {
    /// A setting's value: a string, or some other kind of TOML value, named for an error.
    enum Value {
      case string(String)
      case other(String)
    }

    let key: String
    let line: Int
    let value: Value
  }

  /// What is not TOML, and where.
  struct Failure: Error {
    let message: String
    let line: Int
    let column: Int
  }

  private let scalars: [Unicode.Scalar]
  private var index = 0
  private var line = 1
  private var lineStart = 0

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
  }

  /// The entries of the text, in its order; a key set twice is an error.
  mutating func entries() throws(Failure) -> [Entry] {
    var entries: [Entry] = []
    var seen: [String: Int] = [:]
    while true {
      skipBlanks()
      guard let next = peek() else { return entries }
      switch next {
      case "\n", "\r": try newline()
      case "#": try comment()
      case "[":
        // A table header: its first key names a table, which no setting is.
        let at = (line, column)
        index += 1
        if peek() == "[" { index += 1 }
        skipBlanks()
        let key = try key()
        entries.append(Entry(key: key, line: at.0, value: .other("table")))
        return entries
      default:
        let keyLine = line
        let keyColumn = column
        let key = try key()
        skipBlanks()
        if peek() == "." {
          entries.append(Entry(key: key, line: keyLine, value: .other("table")))
          return entries
        }
        guard peek() == "=" else { throw failure("expected = after the key") }
        index += 1
        skipBlanks()
        let value = try value()
        if let first = seen[key] {
          throw Failure(message: "\(key) is set twice (first on line \(first))", line: keyLine, column: keyColumn)
        }
        seen[key] = keyLine
        entries.append(Entry(key: key, line: keyLine, value: value))
        if case .other = value { return entries }
        skipBlanks()
        if peek() == "#" { try comment() }
        guard peek() == nil || peek() == "\n" || peek() == "\r" else {
          throw failure("expected the end of the line after the value")
        }
      }
    }
  }

  // MARK: - Keys and values

  private mutating func key() throws(Failure) -> String {
    switch peek() {
    case "\"": return try singleLineString(quote: "\"")
    case "'": return try singleLineString(quote: "'")
    default:
      var key = ""
      while let scalar = peek(), Self.isBare(scalar) {
        key.unicodeScalars.append(scalar)
        index += 1
      }
      guard !key.isEmpty else { throw failure("expected a key (letters, digits, - and _, or a quoted name)") }
      return key
    }
  }

  private mutating func value() throws(Failure) -> Entry.Value {
    if starts(with: "\"\"\"") { return .string(try multiLineString(quote: "\"")) }
    if starts(with: "'''") { return .string(try multiLineString(quote: "'")) }
    if peek() == "\"" { return .string(try singleLineString(quote: "\"")) }
    if peek() == "'" { return .string(try singleLineString(quote: "'")) }
    // Other values are never settings: their kind is enough to say so.
    if peek() == "[" { return .other("array") }
    if peek() == "{" { return .other("inline table") }
    if starts(with: "true") || starts(with: "false") { return .other("boolean") }
    if let scalar = peek(),
      ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || starts(with: "inf")
        || starts(with: "nan")
    {
      return .other("number or date")
    }
    throw failure("expected a value: a string is written in quotes")
  }

  /// `"…"` (escapes read) or `'…'` (none), on one line.
  private mutating func singleLineString(quote: Unicode.Scalar) throws(Failure) -> String {
    index += 1
    var text = ""
    while true {
      guard let scalar = peek(), scalar != "\n", scalar != "\r" else { throw failure("the string is not closed") }
      index += 1
      if scalar == quote { return text }
      if scalar == "\\" && quote == "\"" {
        text.unicodeScalars.append(try escape())
        continue
      }
      try allow(scalar)
      text.unicodeScalars.append(scalar)
    }
  }

  /// `"""…"""` (escapes read) or `'''…'''` (none): the newline right after the opening is not
  /// part of it; up to two quotes may end it.
  private mutating func multiLineString(quote: Unicode.Scalar) throws(Failure) -> String {
    index += 3
    if peek() == "\n" || (peek() == "\r" && peek(1) == "\n") { try newline() }
    var text = ""
    while true {
      guard let scalar = peek() else { throw failure("the string is not closed") }
      if scalar == quote && peek(1) == quote && peek(2) == quote {
        var run = 3
        while peek(run) == quote { run += 1 }
        guard run <= 5 else { throw failure("too many quotes at the end of the string") }
        for _ in 0..<(run - 3) { text.unicodeScalars.append(quote) }
        index += run
        return text
      }
      if scalar == "\n" || scalar == "\r" {
        try newline()
        text.unicodeScalars.append("\n")
        continue
      }
      index += 1
      if scalar == "\\" && quote == "\"" {
        if try lineEndingBackslash() { continue }
        text.unicodeScalars.append(try escape())
        continue
      }
      try allow(scalar)
      text.unicodeScalars.append(scalar)
    }
  }

  /// After a `\` in a multi-line basic string: when only blanks follow it on its line, skips
  /// them and every blank and newline after.
  private mutating func lineEndingBackslash() throws(Failure) -> Bool {
    var ahead = 0
    while peek(ahead) == " " || peek(ahead) == "\t" { ahead += 1 }
    guard peek(ahead) == "\n" || (peek(ahead) == "\r" && peek(ahead + 1) == "\n") else { return false }
    index += ahead
    while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
      if scalar == "\n" || scalar == "\r" { try newline() } else { index += 1 }
    }
    return true
  }

  /// The scalar an escape after `\` stands for.
  private mutating func escape() throws(Failure) -> Unicode.Scalar {
    guard let letter = peek() else { throw failure("the string is not closed") }
    index += 1
    switch letter {
    case "b": return "\u{08}"
    case "t": return "\t"
    case "n": return "\n"
    case "f": return "\u{0C}"
    case "r": return "\r"
    case "\"": return "\""
    case "\\": return "\\"
    case "u", "U":
      let count = letter == "u" ? 4 : 8
      var hex = ""
      for _ in 0..<count {
        guard let digit = peek(), digit.properties.isASCIIHexDigit else {
          throw failure("\\\(letter) takes \(count) hexadecimal digits")
        }
        hex.unicodeScalars.append(digit)
        index += 1
      }
      guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
        throw failure("\\\(letter)\(hex) is not a Unicode scalar value")
      }
      return scalar
    default:
      index -= 1
      throw failure("\\\(letter) is not an escape TOML has (\\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)")
    }
  }

  // MARK: - Lines, blanks and comments

  private mutating func newline() throws(Failure) {
    if peek() == "\r" {
      guard peek(1) == "\n" else { throw failure("a carriage return alone is not a line end") }
      index += 1
    }
    index += 1
    line += 1
    lineStart = index
  }

  private mutating func comment() throws(Failure) {
    while let scalar = peek(), scalar != "\n" {
      if scalar == "\r" && peek(1) == "\n" { return }
      try allow(scalar)
      index += 1
    }
  }

  private mutating func skipBlanks() {
    while peek() == " " || peek() == "\t" { index += 1 }
  }

  /// Refuses a control character other than tab, which TOML allows in no string or comment.
  private func allow(_ scalar: Unicode.Scalar) throws(Failure) {
    if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F {
      throw failure("control character U+\(String(scalar.value, radix: 16, uppercase: true)) (write it as an escape)")
    }
  }

  // MARK: - Scanning

  private var column: Int { index - lineStart + 1 }

  private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    index + offset < scalars.count ? scalars[index + offset] : nil
  }

  private func starts(with text: String) -> Bool {
    var offset = 0
    for scalar in text.unicodeScalars {
      guard peek(offset) == scalar else { return false }
      offset += 1
    }
    return true
  }

  private func failure(_ message: String) -> Failure {
    Failure(message: message, line: line, column: column)
  }

  private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
      || scalar == "_"
  }
}
