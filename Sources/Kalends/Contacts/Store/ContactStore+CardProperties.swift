internal import LMDB

extension ContactStore {
  /// Sets and removes WebDAV dead properties (``Contact/clientProperties``,
  /// ``ContactGroup/clientProperties``) of the card a CardDAV client finds at `name` — CardDAV's
  /// `PROPPATCH` of an address object — in one save of that contact or group (a `nil` value removes
  /// the name), when `condition` holds for its `AddressObject.entityVersion`.
  ///
  /// The session needs what a change of the card needs: access to contacts, to that contact when
  /// it was given chosen ones (which never reach groups). Nothing is written when the properties
  /// stay as they are. Throws ``CalendarError/objectConditionFailed(_:)`` when there is no card at
  /// `name` this session may use (or `condition` fails), and
  /// ``CalendarError/invalidText(field:reason:)`` when the result holds more than
  /// ``EventCalendar/maximumClientProperties`` or a name or value a calendar's would not.
  ///
  /// Returns the card as stored.
  @discardableResult
  package func updateClientProperties(
    _ changes: [String: String?], ofCardNamed name: String, in container: ObjectID = ContactContainer.localID,
    condition: ObjectCondition = .none
  ) throws(StoreError) -> AddressObject {
    let actor = self.actor
    let book = try contactsBook()
    return try write(.changeChosen(.contacts, "set a card's properties")) { txn, appender, _ in
      let scope = try txn.reading { try contactScope(book, in: $0) }
      try Self.checkContainer(container, scope: scope, actor, book, in: &txn)
      if let (id, stored) = try txn.reading({
        try Self.stored(named: name, book, scope: scope, container: container, in: $0)
      }) {
        let contact = try ContactCodec.decodeContact(id: id, version: stored.version, modified: nil, stored.state)
        guard condition.holds(for: contact.version) else { throw StoreError.calendar(.objectConditionFailed(name)) }
        return .contact(
          try EventStore.resaved([contact], with: changes) {
            try Self.saveContact($0, overwrite: true, scope: scope, actor, book, &txn, &appender)
          }[0])
      }
      let found = try txn.reading { txn -> GroupCard? in
        guard scope == nil,
          let (id, stored) = try Self.stored(named: name, kind: .group, book, container: container, in: txn)
        else {
          return nil
        }
        return try Self.groupCard(id, stored, book, in: txn)
      }
      guard let card = found, condition.holds(for: card.contentVersion) else {
        throw StoreError.calendar(.objectConditionFailed(name))
      }
      let group = try EventStore.resaved([card.group], with: changes) {
        try Self.saveGroup($0, overwrite: true, actor, book, &txn, &appender)
      }[0]
      guard group.version != card.group.version else { return .group(card) }
      let saved = try txn.reading { txn -> GroupCard in
        guard let entry = try book.state(.group, group.id, in: txn) else {
          throw StoreError.contact(.groupNotFound(group.id))
        }
        return try Self.groupCard(group.id, entry, book, in: txn)
      }
      return .group(saved)
    }
  }
}
