import KalendsFormats

/// A `207 Multi-Status` body (RFC 4918 §13): one `response` per resource, its properties found
/// (`200`) and not found (`404`) in `propstat` elements.
struct Multistatus {
  private(set) var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<D:multistatus" + declarations + ">"

  /// The namespace declarations every document the server writes carries.
  static let declarations = Namespace.prefixes.map { " xmlns:\($0.prefix)=\"\($0.uri)\"" }.joined()

  /// `name` as written: with its namespace's prefix, or its own declaration for a namespace the
  /// server has no prefix for (a client's dead property).
  static func qualified(_ name: XMLName) -> String {
    let tag = closing(name)
    guard tag.hasPrefix("X:") else { return tag }
    return tag + " xmlns:X=\"\(XMLText.escaped(name.namespace))\""
  }

  /// The closing tag of `name`: its prefix and local name (`X` for a namespace without one).
  static func closing(_ name: XMLName) -> String {
    if let prefix = Namespace.prefixes.first(where: { $0.uri == name.namespace })?.prefix {
      return "\(prefix):\(name.local)"
    }
    return name.namespace.isEmpty ? name.local : "X:\(name.local)"
  }

  /// `<name>value</name>`, `value` being XML already.
  static func element(_ name: XMLName, _ value: String) -> String {
    value.isEmpty ? "<\(qualified(name))/>" : "<\(qualified(name))>\(value)</\(closing(name))>"
  }

  /// The resource at `href` with the properties `found` (name and value as XML) and `missing`.
  mutating func add(_ href: String, found: [(XMLName, String)], missing: [XMLName] = []) {
    xml += "<D:response><D:href>\(XMLText.escaped(href))</D:href>"
    if !found.isEmpty {
      xml += "<D:propstat><D:prop>"
      for (name, value) in found { xml += Self.element(name, value) }
      xml += "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>"
    }
    if !missing.isEmpty {
      xml += "<D:propstat><D:prop>"
      for name in missing { xml += "<\(Self.qualified(name))/>" }
      xml += "</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>"
    }
    xml += "</D:response>"
  }

  /// The resource at `href` with each group of properties (names only) under its status, as
  /// PROPPATCH answers; empty groups are left out.
  mutating func add(_ href: String, propstats: [([XMLName], String)]) {
    xml += "<D:response><D:href>\(XMLText.escaped(href))</D:href>"
    for (names, status) in propstats { xml += Self.propstat(names, status: status) }
    xml += "</D:response>"
  }

  /// A `propstat` of the properties `names` (empty) with `status`; empty when `names` is.
  static func propstat(_ names: [XMLName], status: String) -> String {
    guard !names.isEmpty else { return "" }
    return "<D:propstat><D:prop>" + names.map { "<\(qualified($0))/>" }.joined()
      + "</D:prop><D:status>HTTP/1.1 \(status)</D:status></D:propstat>"
  }

  /// A resource at `href` answered with a status only (`404` for a multiget's unknown href).
  mutating func add(_ href: String, status: String) {
    xml += "<D:response><D:href>\(XMLText.escaped(href))</D:href><D:status>HTTP/1.1 \(status)</D:status></D:response>"
  }

  /// The document.
  var finished: String { xml + "</D:multistatus>\n" }

  /// The responses added so far, without the document's start: a part of a streamed multistatus.
  var responses: String { String(xml.dropFirst(Self.opening.count)) }

  /// The document's start, before any response.
  static let opening = Multistatus().xml

  /// The document closed with the `sync-token` a `sync-collection` report answers (RFC 6578 §6.2).
  func finished(syncToken: String) -> String {
    xml + "<D:sync-token>\(XMLText.escaped(syncToken))</D:sync-token></D:multistatus>\n"
  }
}
