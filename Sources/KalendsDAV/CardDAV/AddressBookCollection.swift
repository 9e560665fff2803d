import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

/// An address book as a ``DAVCollection``: its members are the cards of its contacts and groups
/// the app sees, under the names their clients stored them by, written as vCard 3.0 or 4.0 as the
/// report's `address-data` asks.
struct AddressBookCollection: DAVCollection {
  /// The name the request gave the address book (its path segment).
  let book: String
  /// The contacts container.
  let container: ObjectID
  let use: StoreServer.AppUse
  /// The vCard version the report asks for.
  let version: VCardVersion

  var href: String { DAVPath.bookHref(book) }

  func memberName(_ path: DAVPath) -> String? {
    // A card of this address book, by whichever name the client gave the book.
    guard case .contact(let other, let name) = path, other == book else { return nil }
    return name
  }

  func memberHref(_ name: String) -> String { DAVPath.contact(name, in: book) }

  func version(of member: AddressObject) -> LogPosition { member.entityVersion }

  /// vCard 3.0, or 4.0 when `Accept` asks for it.
  func representation(of member: AddressObject, for request: Request) -> (contentType: String, text: String) {
    let asked: VCardVersion = (request.headers[.accept] ?? "").contains("version=4.0") ? .v4 : .v3
    return ("text/vcard; charset=utf-8", request.method == .head ? "" : member.vCard(asked))
  }

  var uidConflict: XMLName { .carddav("no-uid-conflict") }

  /// A group's card also sets its members, each joining or leaving by a save of that contact.
  func store(_ draft: AddressObject, named name: String, condition: ObjectCondition) throws(StoreError) -> Bool {
    try use.session.contactStore.putAddressObject(draft, named: name, in: container, condition: condition)
  }

  func remove(named name: String, condition: ObjectCondition) throws {
    try use.session.contactStore.removeAddressObject(named: name, in: container, condition: condition)
  }

  func members(named names: [String]) throws -> [AddressObject?] {
    try names.map { try use.session.contactStore.addressObject(named: $0, in: container) }
  }

  func changes(after position: LogPosition?, limit: Int?) throws -> DAVChanges<AddressObject> {
    let changes = try use.session.contactStore.contactChanges(after: position, limit: limit, in: container)
    return DAVChanges(
      members: changes.contacts.map(AddressObject.contact) + changes.groups.map(AddressObject.group),
      removed: changes.removed, position: changes.position, isTruncated: changes.isTruncated)
  }

  func multistatus(_ members: [AddressObject], _ selection: PropertySelection, then tail: String) throws
    -> Response
  {
    var multistatus = Multistatus()
    for card in members {
      selection.add(.card(card, version, at: book), to: &multistatus, positions: use.positions)
    }
    return DAVMiddleware.xml(multistatus.xml + tail, status: .init(code: 207, reasonPhrase: "Multi-Status"))
  }
}
