/// An element of a parsed XML document, namespaces resolved: what a WebDAV request body says.
struct XMLElement: Sendable, Hashable {
  /// Its name: namespace URI and local name.
  let name: XMLName
  /// Its attributes by local name (DAV bodies use unprefixed ones only: `name`, `start`, `end`).
  let attributes: [String: String]
  /// Its child elements, in order.
  let children: [XMLElement]
  /// Its character data, concatenated (text and CDATA between its children).
  let text: String

  /// The first child named `name`.
  func child(_ name: XMLName) -> XMLElement? { children.first { $0.name == name } }

  /// The children named `name`.
  func children(_ name: XMLName) -> [XMLElement] { children.filter { $0.name == name } }
}

/// A namespace-qualified XML name (`{DAV:}prop`).
struct XMLName: Sendable, Hashable, CustomStringConvertible {
  let namespace: String
  let local: String

  init(_ namespace: String, _ local: String) {
    self.namespace = namespace
    self.local = local
  }

  var description: String { "{\(namespace)}\(local)" }

  static func dav(_ local: String) -> XMLName { XMLName(Namespace.dav, local) }
  static func caldav(_ local: String) -> XMLName { XMLName(Namespace.caldav, local) }
  static func carddav(_ local: String) -> XMLName { XMLName(Namespace.carddav, local) }
}

/// The namespaces DAV bodies use, and the prefixes the server writes them with.
enum Namespace {
  static let dav = "DAV:"
  static let caldav = "urn:ietf:params:xml:ns:caldav"
  static let carddav = "urn:ietf:params:xml:ns:carddav"
  static let calendarServer = "http://calendarserver.org/ns/"
  static let apple = "http://apple.com/ns/ical/"
  static let kalends = "https://kalends.dev/ns/dav"

  /// The prefixes of the namespaces above, declared on every document the server writes.
  static let prefixes: [(prefix: String, uri: String)] = [
    ("D", dav), ("C", caldav), ("CR", carddav), ("CS", calendarServer), ("A", apple), ("K", kalends),
  ]
}
