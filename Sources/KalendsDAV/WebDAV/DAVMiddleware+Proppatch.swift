import HTTPTypes
import Hummingbird
import KalendsFormats
import KalendsServer

/// PROPPATCH of a collection, written once for calendars and address books.
extension DAVMiddleware {
  /// PROPPATCH (RFC 4918 §9.2) of the collection at `href`, held as `original`: each of `updates`
  /// set (`set`) or removed (`remove`) on a copy, all or nothing. When none is refused and the copy
  /// differs, `save` stores it in one transaction; the answer is `207` with every property `200`.
  /// A refused update (a protected property, a value the collection cannot hold) answers `403` for
  /// it and `424` for the others, and nothing is written.
  func proppatchCollection<Value: Equatable & Sendable>(
    _ updates: [(XMLElement, Bool)], at href: String, of original: Value, _ use: StoreServer.AppUse,
    set: (XMLElement, inout Value) -> Bool, remove: (XMLName, inout Value) -> Bool,
    save: @escaping @Sendable (Value) throws -> Void
  ) async throws -> Response {
    var value = original
    var names: [XMLName] = []
    var refused: [XMLName] = []
    for (property, isSet) in updates {
      names.append(property.name)
      if !(isSet ? set(property, &value) : remove(property.name, &value)) { refused.append(property.name) }
    }
    if !refused.isEmpty { return Self.propertiesRefused(href, names, refused, status: "403 Forbidden") }
    let changed = value
    if changed != original {
      try await server.withStore(use) { try Self.mapped { try save(changed) } }
    }
    var multistatus = Multistatus()
    multistatus.add(href, propstats: [(names, "200 OK")])
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }
}
