import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

/// CardDAV (RFC 6352): the store's contacts containers as address books — the local one at
/// `/dav/addressbooks/contacts/`, any other at the name a client made it under (extended MKCOL,
/// RFC 5689) or its identifier — each contact and each group an address object resource named by
/// its `UID` (or the name the client stored it under), read and written by the app's session under
/// its contacts access (limited access: only the contacts the person chose for it and those it
/// made, no group, and the address books of ``ContactContainer``'s rule).
extension DAVMiddleware {
  /// The app's use of contacts; its first asks the person, as an API app's would.
  func contactsUse(_ context: ServerContext, reading: Bool) async throws -> StoreServer.AppUse {
    try await server.app(context, using: .contacts, reading: reading, firstUseAsks: true)
  }

  /// The address book the app finds at `/dav/addressbooks/BOOK/` (``ContactStore/contactContainer(named:)``),
  /// or `404`: one it does not see is not there for it.
  func container(_ book: String, _ use: StoreServer.AppUse) async throws -> ContactContainer {
    guard
      let container = try await server.withStore(use, { try use.session.contactStore.contactContainer(named: book) })
    else {
      throw DAVError(.notFound, nil, "no address book \(book) is among this app's address books")
    }
    return container
  }

  /// PROPFIND of the address book home, the address book or a contact.
  func propfindContacts(
    _ path: DAVPath, _ selection: PropertySelection, depth: Int, version: VCardVersion, _ context: ServerContext
  ) async throws -> Response {
    let use = try await contactsUse(context, reading: true)
    var multistatus = Multistatus()
    switch path {
    case .addressBookHome:
      selection.add(.addressBookHome, to: &multistatus, positions: use.positions)
      if depth == 1 {
        for container in try await server.withStore(use, { try use.session.contactStore.contactContainers() }) {
          selection.add(
            try await addressBook(container, at: container.davName, selection, use), to: &multistatus,
            positions: use.positions)
        }
      }
    case .addressBook(let book):
      let container = try await self.container(book, use)
      selection.add(
        try await addressBook(container, at: book, selection, use), to: &multistatus, positions: use.positions)
      if depth == 1 {
        for card in try await server.withStore(use, { try use.session.contactStore.addressObjects(in: container.id) }) {
          selection.add(.card(card, version, at: book), to: &multistatus, positions: use.positions)
        }
      }
    case .contact(let book, let name):
      let container = try await self.container(book, use)
      guard
        let card = try await server.withStore(
          use, { try use.session.contactStore.addressObject(named: name, in: container.id) })
      else { throw DAVError(.notFound, nil, "no card \(name) in the address book \(book)") }
      selection.add(.card(card, version, at: book), to: &multistatus, positions: use.positions)
    default:
      throw DAVError(.notFound, nil, "nothing is at this path")
    }
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }

  /// The address book `container` at `book` as `selection` asks for it: with its collection tag
  /// when asked for.
  private func addressBook(
    _ container: ContactContainer, at book: String, _ selection: PropertySelection, _ use: StoreServer.AppUse
  ) async throws -> DAVResource {
    let asksPush = Self.asksPush(selection)
    let asksState =
      selection.asks(XMLName(Namespace.calendarServer, "getctag")) || selection.asks(.dav("sync-token")) || asksPush
    guard asksState else { return .addressBook(container, at: book) }
    let (stamp, head) = try await server.withStore(use) {
      (try use.session.contactStore.contactsStamp(in: container.id), try use.session.store.head().position)
    }
    var state = DAVResource.CollectionState(stamp, use.positions, syncToken: SyncToken.text(head, use.positions))
    if asksPush { state.push = try await pushState(of: container.id, use) }
    return .addressBook(container, state, at: book)
  }

  /// REPORT on the address book at `book`: `addressbook-query` (RFC 6352 §8.6),
  /// `addressbook-multiget` (§8.7) and `sync-collection` (RFC 6578).
  func reportContacts(_ body: XMLElement, book: String, _ context: ServerContext) async throws -> Response {
    let selection = PropertySelection(body)
    let version = Self.vCardVersion(asked: body)
    let use = try await contactsUse(context, reading: true)
    let collection = try await self.collection(book, use, version: version)
    switch body.name {
    case .carddav("addressbook-multiget"):
      return try await multiget(body, selection, in: collection)
    case .carddav("addressbook-query"):
      let filter = try AddressBookFilter(body.child(.carddav("filter")))
      let limit = try Self.limit(body, XMLName.carddav)
      let cards = try await server.withStore(use) {
        try use.session.contactStore.addressObjects(in: collection.container)
      }
      // One past the limit tells whether any was left out; no card after it is written to match.
      var matching = Array(cards.lazy.filter { filter.matches($0.vCard(.v4)) }.prefix(limit.map { $0 + 1 } ?? .max))
      var tail = Multistatus()
      if let limit, matching.count > limit {
        // RFC 6352 §8.6.1: the request-URI answered 507 when results were left out.
        matching.removeLast(matching.count - limit)
        tail.add(collection.href, status: "507 Insufficient Storage")
      }
      return try collection.multistatus(matching, selection, then: tail.responses + "</D:multistatus>\n")
    case .dav("sync-collection"):
      return try await syncCollection(body, selection, in: collection)
    default:
      throw DAVError(.forbidden, .dav("supported-report"), "\(body.name) is not a report of an address book")
    }
  }

  /// The address book at `book` as a collection of the app of `use`.
  private func collection(_ book: String, _ use: StoreServer.AppUse, version: VCardVersion = .v3) async throws
    -> AddressBookCollection
  {
    AddressBookCollection(book: book, container: try await container(book, use).id, use: use, version: version)
  }

  /// GET and HEAD of a contact's or a group's card: its vCard (3.0, or 4.0 when `Accept` asks for
  /// it) and its entity tag.
  func getContact(_ book: String, _ name: String, _ request: Request, _ context: ServerContext) async throws
    -> Response
  {
    let use = try await contactsUse(context, reading: true)
    return try await getMember(name, in: collection(book, use), request)
  }

  /// PUT of a contact's or a group's card: stored under the name the client gave it in one
  /// transaction, replacing its fields (a group's: and its members, each joining or leaving by a
  /// save of that contact).
  func putContact(_ book: String, _ name: String, _ request: Request, _ context: ServerContext) async throws
    -> Response
  {
    let bytes = try await Self.collect(request, upTo: Self.maximumResource)
    let card: AddressObject
    do {
      card = try AddressObject(vCard: bytes)
    } catch {
      throw DAVError(.forbidden, .carddav("valid-address-data"), error.description)
    }
    let use = try await contactsUse(context, reading: false)
    return try await putMember(card, named: name, in: collection(book, use), request)
  }

  /// DELETE of a contact's or a group's card (a group's members stay, outside it).
  func deleteContact(_ book: String, _ name: String, _ request: Request, _ context: ServerContext) async throws
    -> Response
  {
    let use = try await contactsUse(context, reading: false)
    return try await deleteMember(name, in: collection(book, use), request)
  }

  /// Extended MKCOL (RFC 5689) of an address book at `/dav/addressbooks/BOOK/`: a new contacts
  /// container made under the client's name `book`, its title from `displayname` (else the name),
  /// any other property kept as a dead property (`addressbook-description`). The body must set a
  /// `resourcetype` of an address book. The app needs full access to contacts (one with limited
  /// access makes none). A name the app already finds an address book at is refused with `405
  /// resource-must-be-null`; names are resolved among what the app sees, so making one reveals
  /// nothing of others. A property the server cannot set fails the whole request with `403` and a
  /// `propstat` naming it; nothing is written.
  func mkcolAddressBook(_ book: String, _ request: Request, _ context: ServerContext) async throws -> Response {
    guard request.method.rawValue == "MKCOL" else {
      throw DAVError(.forbidden, nil, "MKCALENDAR makes a calendar at \(DAVPath.calendarHomePath)NAME/")
    }
    let body = try await Self.body(request)
    let properties = try Self.creationProperties(
      body, root: .dav("mkcol"), method: "MKCOL", type: (.carddav("addressbook"), "address book"))
    var container = ContactContainer(title: book, resourceName: book)
    var refused: [XMLName] = []
    for property in properties where !Self.set(property, on: &container) { refused.append(property.name) }
    if !refused.isEmpty { return Self.creationRefused(properties, refused: refused, response: "D:mkcol-response") }
    let use = try await contactsUse(context, reading: false)
    let made = container
    try await server.withStore(use) {
      try Self.mapped {
        if try use.session.contactStore.contactContainer(named: book) != nil {
          throw DAVError(.methodNotAllowed, .dav("resource-must-be-null"), "an address book is already at \(book)")
        }
        _ = try use.session.contactStore.save(made)
      }
    }
    return Response(status: .created, headers: [.contentLength: "0"])
  }

  /// DELETE of an address book: removed with every card in it, in one transaction. The local one
  /// stays (`403`).
  func deleteAddressBook(_ book: String, _ context: ServerContext) async throws -> Response {
    let use = try await contactsUse(context, reading: false)
    let container = try await self.container(book, use)
    if container.isLocal { throw DAVError(.forbidden, nil, "the local address book is not removed") }
    try await server.withStore(use) { try Self.mapped { try use.session.contactStore.remove(container) } }
    return Response(status: .noContent)
  }

  /// PROPPATCH of an address book: its title (`displayname`) and dead properties, all or nothing,
  /// in one save; a protected property or an empty title `403`, and the others then `424`.
  func proppatchAddressBook(_ book: String, _ request: Request, _ context: ServerContext) async throws -> Response {
    let updates = try await Self.propertyUpdates(request)
    let use = try await contactsUse(context, reading: false)
    let original = try await self.container(book, use)
    let session = use.session
    return try await proppatchCollection(
      updates, at: DAVPath.bookHref(book), of: original, use, set: { Self.set($0, on: &$1) },
      remove: { Self.remove($0, from: &$1.clientProperties) }, save: { _ = try session.contactStore.save($0) })
  }

  /// Sets `property` on `container`: its title (`displayname`) or a dead property; `false` for a
  /// protected property or a value it cannot hold (an empty title, too many or too large dead
  /// properties).
  static func set(_ property: XMLElement, on container: inout ContactContainer) -> Bool {
    let name = property.name
    if name == .dav("displayname") {
      let value = property.text.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !value.isEmpty else { return false }
      container.title = value
      return true
    }
    return setDead(property, in: &container.clientProperties)
  }

  /// The vCard version a PROPFIND or REPORT asks for in `CARDDAV:address-data` (3.0 unless 4.0).
  static func vCardVersion(asked body: XMLElement?) -> VCardVersion {
    let prop = body?.name == .dav("prop") ? body : body?.child(.dav("prop"))
    return prop?.child(.carddav("address-data"))?.attributes["version"] == "4.0" ? .v4 : .v3
  }
}
