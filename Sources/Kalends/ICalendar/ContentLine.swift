/// One logical line of an iCalendar file (RFC 5545 §3.1) or a vCard (RFC 6350 §3.3), unfolded:
/// `NAME;PARAM=VALUE:value`, in a vCard with an optional group (`item1.EMAIL:…`).
struct ContentLine: Sendable, Hashable {
  /// One parameter: its name in upper case and its values (quotes removed, RFC 6868 `^` escapes read).
  struct Parameter: Sendable, Hashable {
    var name: String
    var values: [String]
  }

  /// The group a vCard property is in (`item1` of `item1.EMAIL`), in upper case; `nil` for none.
  var group: String?
  /// The property or `BEGIN`/`END` name, in upper case.
  var name: String
  /// The parameters, in order.
  var parameters: [Parameter]
  /// The raw value (not unescaped).
  var value: String
  /// The physical line it started on (1-based).
  var line: Int
  /// The unfolded line as written, kept for properties preserved verbatim.
  var text: String

  /// The property name of an unfolded line kept as written (``text``), in upper case: what precedes
  /// its first `;` or `:`.
  static func name(of text: String) -> String {
    String(text.prefix { $0 != ";" && $0 != ":" }).uppercased()
  }

  /// The first value of the parameter `name` (upper case), if present.
  func parameter(_ name: String) -> String? {
    parameters.first { $0.name == name }?.values.first
  }

  /// Parses one unfolded line.
  init(parsing text: String, line: Int) throws(ICalendarError) {
    let bytes = Array(text.utf8)
    var index = 0
    func isNameByte(_ byte: UInt8) -> Bool {
      (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 45
    }
    func name() throws(ICalendarError) -> String {
      let start = index
      while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
      guard index > start else {
        throw ICalendarError(line: line, .malformedLine("\"\(text.prefix(40))\" does not start with a property name"))
      }
      return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
    }
    let first = try name()
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      self.group = first
      self.name = try name()
    } else {
      self.group = nil
      self.name = first
    }
    var parameters: [Parameter] = []
    while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
      index += 1
      let parameterName = try name()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
        throw ICalendarError(line: line, .malformedLine("parameter \(parameterName) of \(self.name) has no value"))
      }
      var values: [String] = []
      repeat {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
          let start = index + 1
          guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else {
            throw ICalendarError(line: line, .malformedLine("parameter \(parameterName) has an unclosed quote"))
          }
          values.append(Self.caretDecoded(bytes[start..<end]))
          index = end + 1
        } else {
          let start = index
          while index < bytes.count, ![UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: ",")].contains(bytes[index]) {
            index += 1
          }
          values.append(Self.caretDecoded(bytes[start..<index]))
        }
      } while index < bytes.count && bytes[index] == UInt8(ascii: ",")
      parameters.append(Parameter(name: parameterName, values: values))
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw ICalendarError(line: line, .malformedLine("\(self.name) has no \":\" before its value"))
    }
    self.parameters = parameters
    self.value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
    self.line = line
    self.text = text
  }

  /// A parameter value with RFC 6868's `^n`, `^^` and `^'` read.
  private static func caretDecoded(_ bytes: ArraySlice<UInt8>) -> String {
    guard bytes.contains(UInt8(ascii: "^")) else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "^"), index + 1 < bytes.endIndex {
        switch bytes[index + 1] {
        case UInt8(ascii: "n"):
          out.append(10)
          index += 2
          continue
        case UInt8(ascii: "^"):
          out.append(UInt8(ascii: "^"))
          index += 2
          continue
        case UInt8(ascii: "'"):
          out.append(UInt8(ascii: "\""))
          index += 2
          continue
        default: break
        }
      }
      out.append(byte)
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }
}
