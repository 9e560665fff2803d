import Hummingbird
import Kalends
import KalendsFormats

/// What every request that makes a collection shares: extended MKCOL (RFC 5689) and MKCALENDAR
/// (RFC 4791 §5.3.1) bodies, and their answer when a property cannot be set.
extension DAVMiddleware {
  /// The properties the body of a request making a collection sets: the `prop` children of its
  /// `set` elements. The body, when there is one, must be a `root` element (`400`). With `type`
  /// (an extended MKCOL), the body must set a `resourcetype` holding `type.name` and nothing but it
  /// and `DAV:collection` (`403 DAV:valid-resourcetype`, saying `type.what`); that property is then
  /// left out of those returned, the collection's kind being the request's.
  static func creationProperties(
    _ body: XMLElement?, root: XMLName, method: String, type: (name: XMLName, what: String)?
  ) throws -> [XMLElement] {
    if let body, body.name != root {
      throw DAVError(.badRequest, nil, "an \(method) body is a \(root) element, not \(body.name)")
    }
    var properties = (body?.children(.dav("set")) ?? []).flatMap { $0.children(.dav("prop")) }.flatMap(\.children)
    guard let type else { return properties }
    let resourceType = properties.first { $0.name == .dav("resourcetype") }
    guard let resourceType, resourceType.child(type.name) != nil else {
      throw DAVError(
        .forbidden, .dav("valid-resourcetype"),
        "only \(type.what)s are made here: MKCOL sets a resourcetype holding \(type.name)")
    }
    let others = resourceType.children.filter { $0.name != type.name && $0.name != .dav("collection") }
    guard others.isEmpty else {
      throw DAVError(
        .forbidden, .dav("valid-resourcetype"),
        "a \(type.what) is not also \(others.map(\.name.description).joined(separator: ", "))")
    }
    properties.removeAll { $0.name == .dav("resourcetype") }
    return properties
  }

  /// The `403` answer of a request making a collection when the properties `refused` cannot be
  /// set (``creationRefusal(_:refused:response:)``). Nothing is written.
  static func creationRefused(_ properties: [XMLElement], refused: [XMLName], response: String) -> Response {
    Self.xml(creationRefusal(properties, refused: refused, response: response), status: .forbidden)
  }

  /// The body of that answer: a `response` element (`D:mkcol-response`, `C:mkcalendar-response`)
  /// with a `propstat` naming the `refused` properties (`403`), and one failing the other
  /// `properties` by dependency (`424`).
  static func creationRefusal(_ properties: [XMLElement], refused: [XMLName], response: String) -> String {
    let failed = properties.map(\.name).filter { !refused.contains($0) }
    var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<\(response)" + Multistatus.declarations + ">"
    xml +=
      Multistatus.propstat(refused, status: "403 Forbidden")
      + Multistatus.propstat(failed, status: "424 Failed Dependency")
    return xml + "</\(response)>\n"
  }
}
