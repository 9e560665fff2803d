import Foundation

/// A JSON value with ordered object keys, so output is stable and reads in a sensible order.
package enum JSONValue {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Compact JSON text. Written as UTF-8 bytes: an answer of a week's events writes hundreds of
  /// objects, and appending to a `String` scalar by scalar cost more than reading them.
  package func rendered() -> String {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(to: &out)
    return String(decoding: out, as: UTF8.self)
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

  private func write(to out: inout [UInt8]) {
    switch self {
    case .null: out += Array("null".utf8)
    case .bool(let value): out += Array((value ? "true" : "false").utf8)
    case .number(let value):
      if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
        out += Array(String(Int64(value)).utf8)
      } else {
        out += Array("\(value)".utf8)
      }
    case .string(let text): Self.writeString(text, to: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        item.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let fields):
      out.append(UInt8(ascii: "{"))
      for (index, (key, value)) in fields.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `text` as a JSON string: quotes, backslashes and control characters escaped, every other
  /// character as its UTF-8 bytes (all that is escaped is ASCII, so no sequence is split).
  private static let hex = Array("0123456789abcdef".utf8)

  private static func writeString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20:
        out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
