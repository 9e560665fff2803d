import Foundation

/// Escapes text for XML character data and attribute values.
package enum XMLText {
  /// `text` with `&`, `<`, `>`, `"` replaced by references. Worked on as UTF-8 bytes: every
  /// object a report answers passes here whole.
  package static func escaped(_ text: String) -> String {
    var text = text
    guard text.withUTF8({ $0.contains(where: needsReference) }) else { return text }
    return text.withUTF8 { utf8 in
      var out: [UInt8] = []
      out.reserveCapacity(utf8.count + 64)
      for byte in utf8 {
        switch byte {
        case 0x26: out += Array("&amp;".utf8)
        case 0x3C: out += Array("&lt;".utf8)
        case 0x3E: out += Array("&gt;".utf8)
        case 0x22: out += Array("&quot;".utf8)
        default: out.append(byte)
        }
      }
      return String(decoding: out, as: UTF8.self)
    }
  }

  private static func needsReference(_ byte: UInt8) -> Bool {
    byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22
  }

  /// `text` with the references ``escaped(_:)`` writes replaced by their characters (a dead
  /// property's text as the client sent it).
  package static func unescaped(_ text: String) -> String {
    guard text.contains("&") else { return text }
    return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
  }
}
