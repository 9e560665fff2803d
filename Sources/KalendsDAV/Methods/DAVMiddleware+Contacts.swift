import Foundation
import HTTPTypes
import Hummingbird
import Kalends
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

  /// The address book the app finds at `/dav/addressbooks/BOOK/` (``EventStore/contactContainer(named:)``),
  /// or `404`: one it does not see is not there for it.
  func container(_ book: String, _ use: StoreServer.AppUse) async throws -> ContactContainer {
    guard let container = try await server.withStore(use, { try use.session.contactContainer(named: book) }) else {
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
        for container in try await server.withStore(use, { try use.session.contactContainers() }) {
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
        for card in try await server.withStore(use, { try use.session.addressObjects(in: container.id) }) {
          selection.add(.card(card, version, at: book), to: &multistatus, positions: use.positions)
        }
      }
    case .contact(let book, let name):
      let container = try await self.container(book, use)
      guard
        let card = try await server.withStore(use, { try use.session.addressObject(named: name, in: container.id) })
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
    let asksState = selection.asks(XMLName(Namespace.calendarServer, "getctag")) || selection.asks(.dav("sync-token"))
    guard asksState else { return .addressBook(container, at: book) }
    let (stamp, head) = try await server.withStore(use) {
      (try use.session.contactsStamp(in: container.id), try use.session.store.head().position)
    }
    let state = DAVResource.CollectionState(stamp, use.positions, syncToken: SyncToken.text(head, use.positions))
    return .addressBook(container, state, at: book)
  }

  /// REPORT on the address book at `book`: `addressbook-query` (RFC 6352 §8.6),
  /// `addressbook-multiget` (§8.7) and `sync-collection` (RFC 6578).
  func reportContacts(_ body: XMLElement, book: String, _ context: ServerContext) async throws -> Response {
    let selection = PropertySelection(body)
    let version = Self.vCardVersion(asked: body)
    let use = try await contactsUse(context, reading: true)
    let container = try await self.container(book, use).id
    var multistatus = Multistatus()
    switch body.name {
    case .carddav("addressbook-multiget"):
      var missing: [String] = []
      var names: [String] = []
      for href in body.children(.dav("href")) {
        let text = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
        // A card of this address book, by whichever name the client gave the book.
        if case .contact(let other, let name)? = DAVPath(URLComponents(string: text)?.path ?? text), other == book {
          names.append(name)
        } else {
          missing.append(text)
        }
      }
      let asked = names
      let found = try await server.withStore(use) {
        try asked.map { name in (name, try use.session.addressObject(named: name, in: container)) }
      }
      for case (_, let card?) in found {
        selection.add(.card(card, version, at: book), to: &multistatus, positions: use.positions)
      }
      for (name, card) in found where card == nil {
        multistatus.add(DAVPath.contact(name, in: book), status: "404 Not Found")
      }
      for href in missing { multistatus.add(href, status: "404 Not Found") }
    case .carddav("addressbook-query"):
      let filter = try AddressBookFilter(body.child(.carddav("filter")))
      let limit = try Self.limit(body, XMLName.carddav)
      let cards = try await server.withStore(use) { try use.session.addressObjects(in: container) }
      var matching = 0
      for card in cards where filter.matches(card.vCard(.v4)) {
        matching += 1
        if let limit, matching > limit {
          // RFC 6352 §8.6.1: the request-URI answered 507 when results were left out.
          multistatus.add(DAVPath.bookHref(book), status: "507 Insufficient Storage")
          break
        }
        selection.add(.card(card, version, at: book), to: &multistatus, positions: use.positions)
      }
    case .dav("sync-collection"):
      // As for a calendar: the contacts changed since the token, a 404 for each removed, the next
      // token; with DAV:limit at most that many and the request-URI answered 507.
      let position = try SyncToken.position(body.child(.dav("sync-token"))?.text ?? "", use.positions)
      let limit = try Self.limit(body, XMLName.dav)
      let changes = try await server.withStore(use) {
        try Self.mapped { try use.session.contactChanges(after: position, limit: limit, in: container) }
      }
      for contact in changes.contacts {
        selection.add(.card(.contact(contact), version, at: book), to: &multistatus, positions: use.positions)
      }
      for group in changes.groups {
        selection.add(.card(.group(group), version, at: book), to: &multistatus, positions: use.positions)
      }
      for name in changes.removed { multistatus.add(DAVPath.contact(name, in: book), status: "404 Not Found") }
      if changes.isTruncated { multistatus.add(DAVPath.bookHref(book), status: "507 Insufficient Storage") }
      return Self.xml(
        multistatus.finished(syncToken: SyncToken.text(changes.position, use.positions)),
        status: .init(code: 207, reasonPhrase: "Multi-Status"))
    default:
      throw DAVError(.forbidden, .dav("supported-report"), "\(body.name) is not a report of an address book")
    }
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }

  /// GET and HEAD of a contact's or a group's card: its vCard (3.0, or 4.0 when `Accept` asks for
  /// it) and its entity tag.
  func getContact(_ book: String, _ name: String, _ request: Request, _ context: ServerContext) async throws
    -> Response
  {
    let use = try await contactsUse(context, reading: true)
    let container = try await self.container(book, use).id
    guard let card = try await server.withStore(use, { try use.session.addressObject(named: name, in: container) })
    else { throw DAVError(.notFound, nil, "no card \(name) in the address book \(book)") }
    let tag = EntityTag.tag(card.entityVersion, use.positions)
    if try EntityTag.condition(.ifNoneMatch, of: request)?.matches(card.entityVersion, use.positions) == true {
      return Response(status: .notModified, headers: [.eTag: tag])
    }
    let version: VCardVersion = (request.headers[.accept] ?? "").contains("version=4.0") ? .v4 : .v3
    let text = request.method == .head ? "" : card.vCard(version)
    return Response(
      status: .ok, headers: [.contentType: "text/vcard; charset=utf-8", .eTag: tag],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  /// PUT of a contact's or a group's card: stored under the name the client gave it in one
  /// transaction, replacing its fields (a group's: and its members, each joining or leaving by a
  /// save of that contact); `If-Match` and `If-None-Match: *` checked in the write's own
  /// transaction; a `UID` another card holds is refused with `no-uid-conflict` naming that card.
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
    let container = try await self.container(book, use).id
    let condition = try Self.condition(of: request, use.positions)
    let created = try await server.withStore(use) {
      try Self.mapped {
        try Self.refusingUIDConflict(.carddav("no-uid-conflict"), href: { DAVPath.contact($0, in: book) }) {
          () throws(StoreError) in
          try use.session.putAddressObject(card, named: name, in: container, condition: condition)
        }
      }
    }
    return Response(status: created ? .created : .noContent)
  }

  /// DELETE of a contact's or a group's card (a group's members stay, outside it).
  func deleteContact(_ book: String, _ name: String, _ request: Request, _ context: ServerContext) async throws
    -> Response
  {
    let use = try await contactsUse(context, reading: false)
    let container = try await self.container(book, use).id
    let condition = try Self.condition(of: request, use.positions)
    let exists = try await server.withStore(use) { try use.session.addressObject(named: name, in: container) != nil }
    guard exists else { throw DAVError(.notFound, nil, "no card \(name) in the address book \(book)") }
    try await server.withStore(use) {
      try Self.mapped { try use.session.removeAddressObject(named: name, in: container, condition: condition) }
    }
    return Response(status: .noContent)
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
    if let body, body.name != .dav("mkcol") {
      throw DAVError(.badRequest, nil, "an MKCOL body is a DAV:mkcol element, not \(body.name)")
    }
    var properties = (body?.children(.dav("set")) ?? []).flatMap { $0.children(.dav("prop")) }.flatMap(\.children)
    let type = properties.first { $0.name == .dav("resourcetype") }
    guard let type, type.child(.carddav("addressbook")) != nil else {
      throw DAVError(
        .forbidden, .dav("valid-resourcetype"),
        "only address books are made here: MKCOL sets a resourcetype holding CARDDAV:addressbook")
    }
    let others = type.children.filter { $0.name != .carddav("addressbook") && $0.name != .dav("collection") }
    guard others.isEmpty else {
      throw DAVError(
        .forbidden, .dav("valid-resourcetype"),
        "an address book is not also \(others.map(\.name.description).joined(separator: ", "))")
    }
    properties.removeAll { $0.name == .dav("resourcetype") }
    var container = ContactContainer(title: book, resourceName: book)
    var refused: [XMLName] = []
    for property in properties where !Self.set(property, on: &container) { refused.append(property.name) }
    if !refused.isEmpty {
      let failed = properties.map(\.name).filter { !refused.contains($0) }
      var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<D:mkcol-response" + Multistatus.declarations + ">"
      xml +=
        Multistatus.propstat(refused, status: "403 Forbidden")
        + Multistatus.propstat(failed, status: "424 Failed Dependency")
      return Self.xml(xml + "</D:mkcol-response>\n", status: .forbidden)
    }
    let use = try await contactsUse(context, reading: false)
    let made = container
    try await server.withStore(use) {
      try Self.mapped {
        if try use.session.contactContainer(named: book) != nil {
          throw DAVError(.methodNotAllowed, .dav("resource-must-be-null"), "an address book is already at \(book)")
        }
        _ = try use.session.save(made)
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
    try await server.withStore(use) { try Self.mapped { try use.session.remove(container) } }
    return Response(status: .noContent)
  }

  /// PROPPATCH of an address book: its title (`displayname`) and dead properties, all or nothing,
  /// in one save; a protected property or an empty title `403`, and the others then `424`.
  func proppatchAddressBook(_ book: String, _ request: Request, _ context: ServerContext) async throws -> Response {
    let updates = try await Self.propertyUpdates(request)
    let use = try await contactsUse(context, reading: false)
    let original = try await self.container(book, use)
    var container = original
    var names: [XMLName] = []
    var refused: [XMLName] = []
    for (property, isSet) in updates {
      names.append(property.name)
      let done =
        isSet
        ? Self.set(property, on: &container) : Self.remove(property.name, from: &container.clientProperties)
      if !done { refused.append(property.name) }
    }
    let href = DAVPath.bookHref(book)
    if !refused.isEmpty { return Self.propertiesRefused(href, names, refused, status: "403 Forbidden") }
    let changed = container
    if changed != original {
      try await server.withStore(use) { try Self.mapped { _ = try use.session.save(changed) } }
    }
    var multistatus = Multistatus()
    multistatus.add(href, propstats: [(names, "200 OK")])
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
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
