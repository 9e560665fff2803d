internal import LMDB

/// The address book as a CardDAV client sees it: one collection of cards, a contact's or a
/// group's, each at its own name.
extension EventStore {
  /// Every card this session may use: the contacts (``contacts(matching:)``'s order), then the
  /// group cards by name (none for a session with limited access).
  public func addressObjects() throws(StoreError) -> [AddressObject] {
    try shown(contacts()).map(AddressObject.contact) + groupCards().map(AddressObject.group)
  }

  /// `contacts` (those this session may use) at the names it finds them at: two that hold one name
  /// (a card an app with limited access stored at the name of a contact it was not given) are
  /// one at that name — the one that held it first — and the other at its alias
  /// (``Contact/resourceName`` of the copy; see ``contact(named:)``).
  func shown(_ contacts: [Contact]) throws(StoreError) -> [Contact] {
    let names = Dictionary(grouping: contacts.indices) { contacts[$0].resourceName ?? contacts[$0].externalID }
    guard names.values.contains(where: { $0.count > 1 }) else { return contacts }
    return try readContacts("read contacts") { txn, view in
      var shown = contacts
      // Each name held twice resolved once: its holder keeps it, the others are at their aliases.
      for (name, indices) in names where indices.count > 1 {
        guard let (holder, _) = try Self.stored(named: name, view.book, scope: view.scope, in: txn) else { continue }
        for index in indices where contacts[index].id != holder {
          shown[index].resourceName = Self.alias(of: contacts[index].id)
        }
      }
      return shown
    }
  }

  /// The card a CardDAV client finds at `name`: a contact's (``contact(named:)``), else a group's
  /// (``groupCard(named:)``); `nil` when there is none this session may use.
  public func addressObject(named name: String) throws(StoreError) -> AddressObject? {
    try readContacts("read contacts") { txn, view in
      if let (id, _) = try Self.stored(named: name, view.book, scope: view.scope, in: txn),
        let contact = try view.contact(id, in: txn)
      {
        return .contact(try Self.shown(contact, view.book, scope: view.scope, in: txn))
      }
      guard view.seesGroups, let (id, stored) = try Self.stored(named: name, kind: .group, view.book, in: txn) else {
        return nil
      }
      return .group(try Self.groupCard(id, stored, view.book, in: txn))
    }
  }

  /// Stores a client's card at `name`: ``putContact(_:named:condition:)`` or
  /// ``putGroup(_:named:condition:)``. Returns whether it was new.
  @discardableResult
  public func putAddressObject(
    _ card: AddressObject, named name: String, condition: ObjectCondition = .none
  ) throws(StoreError) -> Bool {
    switch card {
    case .contact(let contact): try putContact(contact, named: name, condition: condition).created
    case .group(let group): try putGroup(group, named: name, condition: condition).created
    }
  }

  /// Removes the card a CardDAV client finds at `name` (``addressObject(named:)``) when `condition`
  /// holds for its ``AddressObject/entityVersion``: ``removeContact(named:condition:)`` or
  /// ``removeGroup(named:condition:)``.
  public func removeAddressObject(named name: String, condition: ObjectCondition = .none) throws(StoreError) {
    if case .group? = try addressObject(named: name) {
      try removeGroup(named: name, condition: condition)
    } else {
      try removeContact(named: name, condition: condition)
    }
  }
}
