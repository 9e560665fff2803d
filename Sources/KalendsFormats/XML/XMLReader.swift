/// Parses the XML of WebDAV request bodies into ``XMLElement`` trees, namespaces resolved.
///
/// Only what a DAV body needs: elements, attributes, character data, CDATA, comments, processing
/// instructions (skipped), the five predefined entities and character references. A document
/// type declaration is refused outright, so no entity is ever expanded (no "billion laughs", no
/// external entity read), and depth and size are bounded by the caller's body limit and
/// ``maximumDepth``.
package struct XMLReader {
  /// How deep elements may nest; DAV bodies need about eight.
  package static let maximumDepth = 64

  private let bytes: [UInt8]
  private var at = 0

  /// Parses `bytes` (UTF-8) into the document's root element.
  package static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
    var reader = XMLReader(bytes: bytes)
    return try reader.document()
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private mutating func document() throws(XMLError) -> XMLElement {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    try misc()
    guard at < bytes.count, bytes[at] == UInt8(ascii: "<") else { throw fail("the body holds no XML element") }
    let root = try element(scopes: [["xml": "http://www.w3.org/XML/1998/namespace"]], depth: 0)
    try misc()
    guard at == bytes.count else { throw fail("content after the root element") }
    return root
  }

  /// Skips white space, comments and processing instructions; refuses a document type declaration.
  private mutating func misc() throws(XMLError) {
    while true {
      skipSpace()
      if starts("<?") {
        try skip(past: "?>")
      } else if starts("<!--") {
        try skip(past: "-->")
      } else if starts("<!DOCTYPE") || starts("<!doctype") {
        throw fail("document type declarations are not accepted (no entity is ever expanded)")
      } else {
        return
      }
    }
  }

  private mutating func element(scopes: [[String: String]], depth: Int) throws(XMLError) -> XMLElement {
    guard depth < Self.maximumDepth else { throw fail("elements nest deeper than \(Self.maximumDepth)") }
    at += 1  // "<"
    let qualified = try name()
    var raw: [(String, String)] = []
    var empty = false
    while true {
      skipSpace()
      guard at < bytes.count else { throw fail("the document ends inside a tag") }
      if bytes[at] == UInt8(ascii: "/") {
        guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else { throw fail("a tag has a stray /") }
        at += 2
        empty = true
        break
      }
      if bytes[at] == UInt8(ascii: ">") {
        at += 1
        break
      }
      let attribute = try name()
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw fail("attribute \(attribute) has no value") }
      at += 1
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
        throw fail("attribute \(attribute)'s value is not quoted")
      }
      let quote = bytes[at]
      at += 1
      let start = at
      while at < bytes.count, bytes[at] != quote {
        guard bytes[at] != UInt8(ascii: "<") else { throw fail("an attribute value holds <") }
        at += 1
      }
      guard at < bytes.count else { throw fail("the document ends inside an attribute value") }
      let value = try unescape(bytes[start..<at])
      at += 1
      guard !raw.contains(where: { $0.0 == attribute }) else { throw fail("attribute \(attribute) appears twice") }
      raw.append((attribute, value))
    }
    var scope = scopes.last ?? [:]
    for (attribute, value) in raw {
      if attribute == "xmlns" {
        scope[""] = value
      } else if attribute.hasPrefix("xmlns:") {
        guard !value.isEmpty else { throw fail("namespace prefix \(attribute.dropFirst(6)) is bound to nothing") }
        scope[String(attribute.dropFirst(6))] = value
      }
    }
    let scopes = scopes + [scope]
    let resolved = try resolve(qualified, in: scope, isAttribute: false)
    var attributes: [String: String] = [:]
    for (attribute, value) in raw where attribute != "xmlns" && !attribute.hasPrefix("xmlns:") {
      attributes[try resolve(attribute, in: scope, isAttribute: true).local] = value
    }
    var children: [XMLElement] = []
    var text = ""
    if !empty {
      while true {
        guard at < bytes.count else { throw fail("element \(qualified) is not closed") }
        if starts("</") {
          at += 2
          let closing = try name()
          skipSpace()
          guard closing == qualified, at < bytes.count, bytes[at] == UInt8(ascii: ">") else {
            throw fail("element \(qualified) is closed by \(closing)")
          }
          at += 1
          break
        } else if starts("<!--") {
          try skip(past: "-->")
        } else if starts("<![CDATA[") {
          at += 9
          let start = at
          try skip(past: "]]>")
          text += String(decoding: bytes[start..<(at - 3)], as: UTF8.self)
        } else if starts("<?") {
          try skip(past: "?>")
        } else if starts("<!") {
          throw fail("declarations are not accepted inside elements")
        } else if bytes[at] == UInt8(ascii: "<") {
          children.append(try element(scopes: scopes, depth: depth + 1))
        } else {
          let start = at
          while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
          text += try unescape(bytes[start..<at])
        }
      }
    }
    return XMLElement(name: resolved, attributes: attributes, children: children, text: text)
  }

  /// The name `qualified` (a QName of Namespaces in XML §4: `prefix:local` or `local`, each an
  /// NCName) with its prefix resolved; a name that is not a QName (`a:b:c`, `Z:1x`, `:x`) is
  /// refused: written back into another client's PROPFIND, it would make that answer not
  /// well-formed.
  private func resolve(_ qualified: String, in scope: [String: String], isAttribute: Bool) throws(XMLError) -> XMLName {
    let parts = qualified.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.allSatisfy(XMLName.isNCName) else { throw fail("\(qualified) is not a qualified XML name") }
    if parts.count == 2 {
      guard let uri = scope[String(parts[0])] else { throw fail("namespace prefix \(parts[0]) is not declared") }
      return XMLName(uri, String(parts[1]))
    }
    return XMLName(isAttribute ? "" : scope[""] ?? "", qualified)
  }

  private mutating func name() throws(XMLError) -> String {
    let start = at
    while at < bytes.count {
      let byte = bytes[at]
      let isNameByte =
        byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: ".")
      guard isNameByte else { break }
      at += 1
    }
    guard at > start else { throw fail("a name is missing") }
    return String(decoding: bytes[start..<at], as: UTF8.self)
  }

  /// Character data with the predefined entities and character references replaced; any other
  /// entity reference is refused.
  private func unescape(_ slice: ArraySlice<UInt8>) throws(XMLError) -> String {
    guard slice.contains(UInt8(ascii: "&")) else { return String(decoding: slice, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(slice.count)
    var index = slice.startIndex
    while index < slice.endIndex {
      let byte = slice[index]
      guard byte == UInt8(ascii: "&") else {
        out.append(byte)
        index += 1
        continue
      }
      guard let end = slice[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 12 else {
        throw fail("an & starts no entity reference")
      }
      let reference = String(decoding: slice[(index + 1)..<end], as: UTF8.self)
      switch reference {
      case "lt": out.append(UInt8(ascii: "<"))
      case "gt": out.append(UInt8(ascii: ">"))
      case "amp": out.append(UInt8(ascii: "&"))
      case "quot": out.append(UInt8(ascii: "\""))
      case "apos": out.append(UInt8(ascii: "'"))
      default:
        let number: UInt32? =
          reference.hasPrefix("#x")
          ? UInt32(reference.dropFirst(2), radix: 16)
          : reference.hasPrefix("#") ? UInt32(reference.dropFirst(), radix: 10) : nil
        guard let number, let scalar = Unicode.Scalar(number), number != 0 else {
          throw fail("entity &\(reference); is not one XML predefines (none is ever expanded)")
        }
        out += Array(String(Character(scalar)).utf8)
      }
      index = end + 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  private mutating func skipSpace() {
    while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
  }

  private func starts(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard at + count <= bytes.count else { return false }
    return text.withUTF8Buffer { prefix in (0..<count).allSatisfy { bytes[at + $0] == prefix[$0] } }
  }

  private mutating func skip(past end: StaticString) throws(XMLError) {
    let count = end.utf8CodeUnitCount
    while at + count <= bytes.count {
      if starts(end) {
        at += count
        return
      }
      at += 1
    }
    throw fail("the document ends before \(end)")
  }

  private func fail(_ reason: String) -> XMLError { XMLError(offset: at, reason: reason) }
}

/// A body that is not XML the server reads, with where and why.
package struct XMLError: Error, Sendable, CustomStringConvertible {
  package let offset: Int
  package let reason: String
  package var description: String { "the XML body is malformed at byte \(offset): \(reason)" }
}
