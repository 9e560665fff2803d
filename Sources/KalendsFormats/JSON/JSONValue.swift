import Foundation

/// A JSON value with ordered object keys, so output is stable and reads in a sensible order.
package enum JSONValue {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Compact JSON text.
  package func rendered() -> String {
    var out = ""
    write(to: &out)
    return out
  }

  /// The value as plain text for tables.
  package var plainText: String {
    switch self {
    case .string(let text): text
    default: rendered()
    }
  }

  /// The value as one table cell: text as is, lists joined by commas, nothing for null.
  package var cellText: String {
    switch self {
    case .null: ""
    case .string(let text): text
    case .array(let items): items.map(\.cellText).joined(separator: ", ")
    case .object(let fields): fields.map { "\($0.0) \($0.1.cellText)" }.joined(separator: ", ")
    default: rendered()
    }
  }

  /// A string, or null for `nil`.
  package static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

  /// An integer.
  package static func number(_ value: some BinaryInteger) -> JSONValue { .number(Double(value)) }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let value):
      if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
        out += String(Int64(value))
      } else {
        out += "\(value)"
      }
    case .string(let text): Self.writeString(text, to: &out)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (index, (key, value)) in fields.enumerated() {
        if index > 0 { out += "," }
        Self.writeString(key, to: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }

  private static func writeString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
