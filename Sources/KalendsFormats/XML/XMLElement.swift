/// An element of a parsed XML document, namespaces resolved: what a WebDAV body says, a request's
/// to the server or a remote server's answer to the store's sync.
package struct XMLElement: Sendable, Hashable {
  /// Its name: namespace URI and local name.
  package let name: XMLName
  /// Its attributes by local name (DAV bodies use unprefixed ones only: `name`, `start`, `end`).
  package let attributes: [String: String]
  /// Its child elements, in order.
  package let children: [XMLElement]
  /// Its character data, concatenated (text and CDATA between its children).
  package let text: String

  package init(name: XMLName, attributes: [String: String] = [:], children: [XMLElement] = [], text: String = "") {
    self.name = name
    self.attributes = attributes
    self.children = children
    self.text = text
  }

  /// The first child named `name`.
  package func child(_ name: XMLName) -> XMLElement? { children.first { $0.name == name } }

  /// The children named `name`.
  package func children(_ name: XMLName) -> [XMLElement] { children.filter { $0.name == name } }
}

/// A namespace-qualified XML name (`{DAV:}prop`).
package struct XMLName: Sendable, Hashable, CustomStringConvertible {
  package let namespace: String
  package let local: String

  package init(_ namespace: String, _ local: String) {
    self.namespace = namespace
    self.local = local
  }

  package var description: String { "{\(namespace)}\(local)" }

  package static func dav(_ local: String) -> XMLName { XMLName(Namespace.dav, local) }
  package static func caldav(_ local: String) -> XMLName { XMLName(Namespace.caldav, local) }
  package static func carddav(_ local: String) -> XMLName { XMLName(Namespace.carddav, local) }
}

/// The namespaces DAV bodies use, and the prefixes the server writes them with.
package enum Namespace {
  package static let dav = "DAV:"
  package static let caldav = "urn:ietf:params:xml:ns:caldav"
  package static let carddav = "urn:ietf:params:xml:ns:carddav"
  package static let calendarServer = "http://calendarserver.org/ns/"
  package static let apple = "http://apple.com/ns/ical/"
  package static let kalends = "https://kalends.dev/ns/dav"
  /// WebDAV-Push (draft-bitfire-webdav-push).
  package static let push = "https://bitfire.at/webdav-push"

  /// The prefixes of the namespaces above, declared on every document the server writes.
  package static let prefixes: [(prefix: String, uri: String)] = [
    ("D", dav), ("C", caldav), ("CR", carddav), ("CS", calendarServer), ("A", apple), ("K", kalends), ("P", push),
  ]
}

extension XMLElement {
  /// Its content as XML: its character data (escaped), then its child elements, each declaring its
  /// own namespace — what a client's dead property holds, written back as the client sent it
  /// (text interleaved with elements is written before them; whitespace between elements is
  /// dropped).
  package var content: String {
    let data = children.isEmpty || !text.allSatisfy(\.isWhitespace) ? XMLText.escaped(text) : ""
    return data + children.map(\.serialized).joined()
  }

  /// The element as XML, declaring its namespace with a prefix of its own.
  package var serialized: String {
    let tag = name.namespace.isEmpty ? name.local : "x:" + name.local
    var open = "<" + tag
    if !name.namespace.isEmpty { open += " xmlns:x=\"\(XMLText.escaped(name.namespace))\"" }
    for (attribute, value) in attributes.sorted(by: { $0.key < $1.key }) {
      open += " \(attribute)=\"\(XMLText.escaped(value))\""
    }
    let inner = content
    return inner.isEmpty ? open + "/>" : open + ">" + inner + "</" + tag + ">"
  }
}

extension XMLName {
  /// The name written in Clark notation, `{namespace}local` (``description``), read back; `nil`
  /// unless `local` is an NCName (a name stored before names were checked is never written out).
  package init?(clark: String) {
    guard clark.hasPrefix("{"), let close = clark.firstIndex(of: "}") else { return nil }
    let local = clark[clark.index(after: close)...]
    guard Self.isNCName(local) else { return nil }
    self.init(String(clark[clark.index(after: clark.startIndex)..<close]), String(local))
  }

  /// Whether `name` is an NCName (Namespaces in XML §3): a name without a colon, starting with a
  /// letter, `_` or a non-ASCII character, then letters, digits, `_`, `-`, `.` or non-ASCII ones.
  package static func isNCName(_ name: Substring) -> Bool {
    guard let first = name.utf8.first else { return false }
    let isStart = first >= 0x80 || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) || first == 0x5F
    return isStart
      && name.utf8.allSatisfy { byte in
        byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
          || byte == 0x5F || byte == 0x2D || byte == 0x2E
      }
  }
}
