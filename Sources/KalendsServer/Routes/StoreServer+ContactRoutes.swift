import Foundation
import Hummingbird
import Kalends
import KalendsFormats

extension StoreServer {
  /// The routes of the contacts book (docs/server.md): search, read, create, change, remove, the
  /// groups, every one checked against the app's access to contacts as the library checks it; and
  /// the contact picker, which needs no access.
  func addContactRoutes(to router: Router<ServerContext>) {
    router.get("v1/contacts") { request, context in
      let use = try await self.app(context, using: .contacts, reading: true)
      let search = try Self.contactSearch(request)
      let contacts = try await self.withStore(use) { try use.session.contactStore.contacts(matching: search) }
      return Self.json(.array(contacts.map { .object(use.positions.sealing($0.jsonFields, version: $0.version)) }))
    }
    router.post("v1/contacts") { request, context in
      let use = try await self.app(context, using: .contacts, reading: false)
      let edit = try ContactEdit(json: try await Self.body(request))
      let saved = try await self.withStore(use) { () throws -> Kalends.Contact in
        var contact = Kalends.Contact()
        try edit.apply(to: &contact)
        return try use.session.contactStore.save(contact)
      }
      return Self.contact(saved, status: .created, use.positions)
    }
    router.get("v1/contacts/:id") { request, context in
      let use = try await self.app(context, using: .contacts, reading: true)
      let id = try Self.eventID(context)
      let contact = try await self.withStore(use) { try Self.existing(id, in: use.session) }
      if try EntityTag.condition(.ifNoneMatch, of: request)?.matches(contact.version, use.positions) == true {
        return Response(status: .notModified, headers: [.eTag: EntityTag.tag(contact.version, use.positions)])
      }
      return Self.contact(contact, status: .ok, use.positions)
    }
    router.patch("v1/contacts/:id") { request, context in
      let use = try await self.app(context, using: .contacts, reading: false)
      let id = try Self.eventID(context)
      let edit = try ContactEdit(json: try await Self.body(request))
      let expected = try Self.expectedVersion(request)
      let saved = try await self.withStore(use) { () throws -> Kalends.Contact in
        var contact = try Self.existing(id, in: use.session)
        try Self.checkContact(expected, contact, use.positions)
        try edit.apply(to: &contact)
        return try use.session.contactStore.save(contact)
      }
      return Self.contact(saved, status: .ok, use.positions)
    }
    router.delete("v1/contacts/:id") { request, context in
      let use = try await self.app(context, using: .contacts, reading: false)
      let id = try Self.eventID(context)
      let expected = try Self.expectedVersion(request)
      try await self.withStore(use) {
        let contact = try Self.existing(id, in: use.session)
        try Self.checkContact(expected, contact, use.positions)
        try use.session.contactStore.remove(contact)
      }
      return Response(status: .noContent)
    }
    router.post("v1/contacts/pick") { _, context in
      // The picker needs no access to contacts and grants none (CNContactPickerViewController).
      let (client, session, evidence) = try await self.app(context)
      let picker = DeskContactPicker(channel: self.prompts, evidence: evidence)
      let picked = try await self.onOwnThread { try session.contactStore.pickContact(using: picker) }
      guard let picked else { return Response(status: .noContent) }
      return Self.contact(picked, status: .ok, self.positionSeal.view(for: client.id))
    }
    router.get("v1/groups") { _, context in
      let use = try await self.app(context, using: .contacts, reading: true)
      let groups = try await self.withStore(use) { try use.session.contactStore.groups() }
      return Self.json(.array(groups.map { .object(use.positions.sealing($0.jsonFields, version: $0.version)) }))
    }
    router.get("v1/address-books") { _, context in
      let use = try await self.app(context, using: .contacts, reading: true)
      let books = try await self.withStore(use) { try use.session.contactStore.contactContainers() }
      return Self.json(.array(books.map { .object(use.positions.sealing($0.jsonFields, version: $0.version)) }))
    }
  }

  /// The search of `GET /v1/contacts`: `name`, `email`, `phone` or `group` (at most one); all
  /// contacts without any.
  static func contactSearch(_ request: Request) throws -> ContactSearch {
    let query = request.uri.queryParameters
    var searches: [ContactSearch] = []
    if let name = query["name"] { searches.append(.name(String(name))) }
    if let email = query["email"] { searches.append(.emailAddress(String(email))) }
    if let phone = query["phone"] { searches.append(.phoneNumber(String(phone))) }
    if let group = query["group"] {
      do { searches.append(.group(try ObjectID(argument: String(group), option: "group"))) } catch {
        throw Problem(error)
      }
    }
    guard searches.count <= 1 else {
      throw Problem(
        status: .badRequest, title: "invalid input", detail: "search by one of name, email, phone or group",
        category: .invalidInput)
    }
    return searches.first ?? .all
  }

  /// The contact `id` as the session sees it, or a not-found error.
  static func existing(_ id: ObjectID, in session: EventStore) throws -> Kalends.Contact {
    guard let contact = try session.contactStore.contact(withID: id) else {
      throw StoreError.contact(.contactNotFound(id))
    }
    return contact
  }

  /// Refuses a change when `If-Match` names another version than the stored one.
  static func checkContact(_ expected: EntityTag.Condition?, _ contact: Kalends.Contact, _ positions: AppPositions)
    throws
  {
    try expected?.require(contact.version, positions, of: "contact \(contact.id)")
  }

  /// A contact as the response body, its version as the app of `positions` is shown it as the
  /// entity tag and in the JSON.
  static func contact(_ contact: Kalends.Contact, status: HTTPResponse.Status, _ positions: AppPositions) -> Response {
    versioned(contact.jsonFields, contact.version, status: status, positions)
  }
}
