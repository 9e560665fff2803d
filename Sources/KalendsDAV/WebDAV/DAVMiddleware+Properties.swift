import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

extension DAVMiddleware {
  /// PROPPATCH (RFC 4918 §9.2): of a calendar (its title, colour and dead properties), of an
  /// address book (its title and dead properties), of a calendar object or a card (their dead
  /// properties). All or nothing, answered with a `207`
  /// naming each property; any other resource's properties are the server's (`403
  /// cannot-modify-protected-property`).
  func proppatch(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    switch path {
    case .calendar(let id): return try await proppatchCalendar(id, request, context)
    case .object(let id, let name):
      let (_, use) = try await calendar(id, context, reading: false)
      return try await proppatchResource(DAVPath.object(name, in: id), request, use) {
        (session, changes) throws(StoreError) in
        _ = try session.updateClientProperties(changes, ofObjectNamed: name, inCalendar: id)
      }
    case .contact(let book, let name):
      let use = try await contactsUse(context, reading: false)
      let container = try await self.container(book, use).id
      return try await proppatchResource(DAVPath.contact(name, in: book), request, use) {
        (session, changes) throws(StoreError) in
        _ = try session.contactStore.updateClientProperties(changes, ofCardNamed: name, in: container)
      }
    case .addressBook(let book): return try await proppatchAddressBook(book, request, context)
    default:
      throw DAVError(
        .forbidden, .dav("cannot-modify-protected-property"),
        "the properties of \(request.uri.path) are the server's: a calendar's, an object's, a card's or the address book's are set"
      )
    }
  }

  /// The properties a `propertyupdate` body sets (`true`) and removes (`false`), in the order the
  /// body gives them (a later instruction for a name wins, RFC 4918 §9.2).
  static func propertyUpdates(_ request: Request) async throws -> [(property: XMLElement, isSet: Bool)] {
    guard let body = try await Self.body(request), body.name == .dav("propertyupdate") else {
      throw DAVError(.badRequest, nil, "a PROPPATCH body is a DAV:propertyupdate element")
    }
    var updates: [(XMLElement, Bool)] = []
    for instruction in body.children where instruction.name == .dav("set") || instruction.name == .dav("remove") {
      for property in instruction.children(.dav("prop")).flatMap(\.children) {
        updates.append((property, instruction.name == .dav("set")))
      }
    }
    return updates
  }

  /// What a PROPPATCH of a resource that holds only dead properties changes: each name set to its
  /// XML content or removed (`nil`), and the names refused — a live property's
  /// (``DAVResource/liveProperties``) or a value over 64 KiB.
  static func deadPropertyChanges(
    _ updates: [(property: XMLElement, isSet: Bool)]
  ) -> (changes: [String: String?], names: [XMLName], refused: [XMLName]) {
    var changes: [String: String?] = [:]
    var names: [XMLName] = []
    var refused: [XMLName] = []
    for (property, isSet) in updates {
      names.append(property.name)
      if DAVResource.liveProperties.contains(property.name) || (isSet && property.content.utf8.count > 64 * 1024) {
        refused.append(property.name)
      } else {
        changes[property.name.description] = isSet ? property.content : nil
      }
    }
    return (changes, names, refused)
  }

  /// PROPPATCH of a calendar object or a card (at `href`): its dead properties
  /// (``Event/clientProperties``, ``Contact/clientProperties``) set and removed in one save by
  /// `update`, for an app that may change it (the store checks its access before it looks for the
  /// resource, so a refused app learns nothing of it). Live properties (`getetag`,
  /// `calendar-data`, …) are refused (`403`), and then every other `424`; more than a resource
  /// keeps, `507` (RFC 4918 §9.2.1).
  private func proppatchResource(
    _ href: String, _ request: Request, _ use: StoreServer.AppUse,
    _ update: @escaping @Sendable (EventStore, [String: String?]) throws(StoreError) -> Void
  ) async throws -> Response {
    let updates = try await Self.propertyUpdates(request)
    let (changes, names, refused) = Self.deadPropertyChanges(updates)
    if !refused.isEmpty { return Self.propertiesRefused(href, names, refused, status: "403 Forbidden") }
    let outcome = try await server.withStore(use) {
      try Self.mapped { try Self.outcome { () throws(StoreError) in try update(use.session, changes) } }
    }
    switch outcome {
    case .missing: throw DAVError(.notFound, nil, "nothing is at \(href)")
    case .crowded:
      let set = updates.filter(\.isSet).map(\.property.name)
      return Self.propertiesRefused(href, names, set, status: "507 Insufficient Storage")
    case .done: break
    }
    var multistatus = Multistatus()
    multistatus.add(href, propstats: [(names, "200 OK")])
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }

  /// How a PROPPATCH of an object's dead properties ended in the store.
  enum PropertyOutcome: Sendable {
    case done
    /// No object at the name (or none the app may see).
    case missing
    /// More properties than a resource keeps.
    case crowded
  }

  /// How `update` ended: its two expected failures as outcomes; any other error (a refusal first of
  /// all) thrown.
  private static func outcome(_ update: () throws(StoreError) -> Void) throws(StoreError) -> PropertyOutcome {
    do {
      try update()
      return .done
    } catch {
      switch error {
      case .calendar(.objectConditionFailed): return .missing
      case .calendar(.invalidText): return .crowded
      default: throw error
      }
    }
  }

  /// The `207` of a PROPPATCH that wrote nothing: `refused` with `status`, the other `names` `424`.
  static func propertiesRefused(_ href: String, _ names: [XMLName], _ refused: [XMLName], status: String) -> Response {
    var multistatus = Multistatus()
    multistatus.add(
      href, propstats: [(refused, status), (names.filter { !refused.contains($0) }, "424 Failed Dependency")])
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }
}
