import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsServer

/// CardDAV (RFC 6352): the store's contacts as one address book, each contact and each group an
/// address object resource named by its `UID` (or the name the client stored it under), read and
/// written by the app's session under its contacts access (limited access: only the contacts the
/// person chose for it and those it made, and no group).
extension DAVMiddleware {
  /// The app's use of contacts; its first asks the person, as an API app's would.
  func contactsUse(_ context: ServerContext, reading: Bool) async throws -> StoreServer.AppUse {
    try await server.app(context, using: .contacts, reading: reading, firstUseAsks: true)
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
        selection.add(try await addressBook(selection, use), to: &multistatus, positions: use.positions)
      }
    case .addressBook:
      selection.add(try await addressBook(selection, use), to: &multistatus, positions: use.positions)
      if depth == 1 {
        for card in try await server.withStore(use, { try use.session.addressObjects() }) {
          selection.add(.card(card, version), to: &multistatus, positions: use.positions)
        }
      }
    case .contact(let name):
      guard let card = try await server.withStore(use, { try use.session.addressObject(named: name) })
      else { throw DAVError(.notFound, nil, "no card \(name) in the address book") }
      selection.add(.card(card, version), to: &multistatus, positions: use.positions)
    default:
      throw DAVError(.notFound, nil, "nothing is at this path")
    }
    return Self.xml(multistatus.finished, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }

  /// The address book as `selection` asks for it: with its dead properties, and its collection tag
  /// when asked for.
  private func addressBook(_ selection: PropertySelection, _ use: StoreServer.AppUse) async throws -> DAVResource {
    let asksState = selection.asks(XMLName(Namespace.calendarServer, "getctag")) || selection.asks(.dav("sync-token"))
    let (properties, stamp, head) = try await server.withStore(use) {
      (
        try use.session.addressBookProperties(), asksState ? try use.session.contactsStamp() : nil,
        asksState ? try use.session.store.head().position : nil
      )
    }
    guard let stamp, let head else { return .addressBook(nil, properties: properties) }
    let state = DAVResource.CollectionState(stamp, use.positions, syncToken: SyncToken.text(head, use.positions))
    return .addressBook(state, properties: properties)
  }

  /// REPORT on the address book: `addressbook-query` (RFC 6352 §8.6), `addressbook-multiget`
  /// (§8.7) and `sync-collection` (RFC 6578).
  func reportContacts(_ body: XMLElement, _ context: ServerContext) async throws -> Response {
    let selection = PropertySelection(body)
    let version = Self.vCardVersion(asked: body)
    let use = try await contactsUse(context, reading: true)
    var multistatus = Multistatus()
    switch body.name {
    case .carddav("addressbook-multiget"):
      var missing: [String] = []
      var names: [String] = []
      for href in body.children(.dav("href")) {
        let text = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if case .contact(let name)? = DAVPath(URLComponents(string: text)?.path ?? text) {
          names.append(name)
        } else {
          missing.append(text)
        }
      }
      let asked = names
      let found = try await server.withStore(use) {
        try asked.map { name in (name, try use.session.addressObject(named: name)) }
      }
      for case (_, let card?) in found {
        selection.add(.card(card, version), to: &multistatus, positions: use.positions)
      }
      for (name, card) in found where card == nil {
        multistatus.add(DAVPath.contact(name), status: "404 Not Found")
      }
      for href in missing { multistatus.add(href, status: "404 Not Found") }
    case .carddav("addressbook-query"):
      let filter = try AddressBookFilter(body.child(.carddav("filter")))
      let limit = try Self.limit(body, XMLName.carddav)
      let cards = try await server.withStore(use) { try use.session.addressObjects() }
      var matching = 0
      for card in cards where filter.matches(card.vCard(.v4)) {
        matching += 1
        if let limit, matching > limit {
          // RFC 6352 §8.6.1: the request-URI answered 507 when results were left out.
          multistatus.add(DAVPath.addressBookPath, status: "507 Insufficient Storage")
          break
        }
        selection.add(.card(card, version), to: &multistatus, positions: use.positions)
      }
    case .dav("sync-collection"):
      // As for a calendar: the contacts changed since the token, a 404 for each removed, the next
      // token; with DAV:limit at most that many and the request-URI answered 507.
      let position = try SyncToken.position(body.child(.dav("sync-token"))?.text ?? "", use.positions)
      let limit = try Self.limit(body, XMLName.dav)
      let changes = try await server.withStore(use) {
        try Self.mapped { try use.session.contactChanges(after: position, limit: limit) }
      }
      for contact in changes.contacts {
        selection.add(.card(.contact(contact), version), to: &multistatus, positions: use.positions)
      }
      for group in changes.groups {
        selection.add(.card(.group(group), version), to: &multistatus, positions: use.positions)
      }
      for name in changes.removed { multistatus.add(DAVPath.contact(name), status: "404 Not Found") }
      if changes.isTruncated { multistatus.add(DAVPath.addressBookPath, status: "507 Insufficient Storage") }
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
  func getContact(_ name: String, _ request: Request, _ context: ServerContext) async throws -> Response {
    let use = try await contactsUse(context, reading: true)
    guard let card = try await server.withStore(use, { try use.session.addressObject(named: name) })
    else { throw DAVError(.notFound, nil, "no card \(name) in the address book") }
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
  func putContact(_ name: String, _ request: Request, _ context: ServerContext) async throws -> Response {
    let bytes = try await Self.collect(request, upTo: Self.maximumResource)
    let card: AddressObject
    do {
      card = try AddressObject(vCard: bytes)
    } catch {
      throw DAVError(.forbidden, .carddav("valid-address-data"), error.description)
    }
    let use = try await contactsUse(context, reading: false)
    let condition = try Self.condition(of: request, use.positions)
    let created = try await server.withStore(use) {
      try Self.mapped {
        try Self.refusingUIDConflict(.carddav("no-uid-conflict"), href: DAVPath.contact) { () throws(StoreError) in
          try use.session.putAddressObject(card, named: name, condition: condition)
        }
      }
    }
    return Response(status: created ? .created : .noContent)
  }

  /// DELETE of a contact's or a group's card (a group's members stay, outside it).
  func deleteContact(_ name: String, _ request: Request, _ context: ServerContext) async throws -> Response {
    let use = try await contactsUse(context, reading: false)
    let condition = try Self.condition(of: request, use.positions)
    let exists = try await server.withStore(use) { try use.session.addressObject(named: name) != nil }
    guard exists else { throw DAVError(.notFound, nil, "no card \(name) in the address book") }
    try await server.withStore(use) {
      try Self.mapped { try use.session.removeAddressObject(named: name, condition: condition) }
    }
    return Response(status: .noContent)
  }

  /// The vCard version a PROPFIND or REPORT asks for in `CARDDAV:address-data` (3.0 unless 4.0).
  static func vCardVersion(asked body: XMLElement?) -> VCardVersion {
    let prop = body?.name == .dav("prop") ? body : body?.child(.dav("prop"))
    return prop?.child(.carddav("address-data"))?.attributes["version"] == "4.0" ? .v4 : .v3
  }
}
