internal import LMDB

/// An address book (a ``ContactContainer``) as a CardDAV client sees it: one collection of cards,
/// a contact's or a group's, each at its own name.
extension ContactStore {
  /// Every card of `container` this session may use: the contacts (``contacts(matching:)``'s
  /// order), then the group cards by name (none for a session with limited access). Throws
  /// ``ContactError/containerNotFound(_:)`` for a container the session does not see.
  package func addressObjects(in container: ObjectID = ContactContainer.localID) throws(StoreError) -> [AddressObject] {
    let contacts = try readContacts("read contacts") { txn, view -> [Contact] in
      guard try view.container(container, in: txn) != nil else {
        throw StoreError.contact(.containerNotFound(container))
      }
      let ids = try view.book.members(ofContainer: container, .contact, in: txn)
      return Self.inNameOrder(try ids.compactMap { try view.contact($0, in: txn) })
    }
    return try shown(contacts).map(AddressObject.contact) + groupCards(in: container).map(AddressObject.group)
  }

  /// `contacts` (those this session may use, of one container) at the names it finds them at: two that hold one name
  /// (a card an app with limited access stored at the name of a contact it was not given) are
  /// one at that name — the one that held it first — and the other at its alias
  /// (``Contact/resourceName`` of the copy; see `contact(named:in:)`).
  func shown(_ contacts: [Contact]) throws(StoreError) -> [Contact] {
    let names = Dictionary(grouping: contacts.indices) { contacts[$0].resourceName ?? contacts[$0].externalID }
    guard names.values.contains(where: { $0.count > 1 }) else { return contacts }
    return try readContacts("read contacts") { txn, view in
      var shown = contacts
      // Each name held twice resolved once: its holder keeps it, the others are at their aliases.
      for (name, indices) in names where indices.count > 1 {
        let container = contacts[indices[0]].containerID
        guard
          let (holder, _) = try Self.stored(named: name, view.book, scope: view.scope, container: container, in: txn)
        else { continue }
        for index in indices where contacts[index].id != holder {
          shown[index].resourceName = Self.alias(of: contacts[index].id)
        }
      }
      return shown
    }
  }

  /// The card a CardDAV client finds at `name`: a contact's (`contact(named:in:)`), else a group's
  /// (`groupCard(named:in:)`); `nil` when there is none this session may use.
  package func addressObject(
    named name: String, in container: ObjectID = ContactContainer.localID
  ) throws(StoreError) -> AddressObject? {
    try readContacts("read contacts") { txn, view in
      guard try view.container(container, in: txn) != nil else { return nil }
      if let (id, _) = try Self.stored(named: name, view.book, scope: view.scope, container: container, in: txn),
        let contact = try view.contact(id, in: txn)
      {
        return .contact(try Self.shown(contact, view.book, scope: view.scope, in: txn))
      }
      guard view.seesGroups,
        let (id, stored) = try Self.stored(named: name, kind: .group, view.book, container: container, in: txn)
      else {
        return nil
      }
      return .group(try Self.groupCard(id, stored, view.book, in: txn))
    }
  }

  /// Stores a client's card at `name`: `putContact(_:named:in:condition:)` or
  /// `putGroup(_:named:in:condition:)`. Returns whether it was new.
  @discardableResult
  package func putAddressObject(
    _ card: AddressObject, named name: String, in container: ObjectID = ContactContainer.localID,
    condition: ObjectCondition = .none
  ) throws(StoreError) -> Bool {
    switch card {
    case .contact(let contact): try putContact(contact, named: name, in: container, condition: condition).created
    case .group(let group): try putGroup(group, named: name, in: container, condition: condition).created
    }
  }

  /// Removes the card a CardDAV client finds at `name` (`addressObject(named:in:)`) when `condition`
  /// holds for its `AddressObject.entityVersion`: `removeContact(named:in:condition:)` or
  /// `removeGroup(named:in:condition:)`.
  package func removeAddressObject(
    named name: String, in container: ObjectID = ContactContainer.localID, condition: ObjectCondition = .none
  ) throws(StoreError) {
    if case .group? = try addressObject(named: name, in: container) {
      try removeGroup(named: name, in: container, condition: condition)
    } else {
      try removeContact(named: name, in: container, condition: condition)
    }
  }
}
