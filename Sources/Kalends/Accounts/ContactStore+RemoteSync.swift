internal import LMDB

/// What a sync found changed in an account's address book: a card stored on the server under a
/// name, or a name gone.
package enum RemoteCardChange: Sendable {
  /// The card the server holds at `name`, with its `ETag`.
  case stored(name: String, entityTag: String, card: AddressObject)
  /// No card is at `name` any more.
  case removed(name: String)
}

extension ContactStore {
  /// The address books of the account `id` (mirrors of its server's collections), each with its
  /// ``ContactContainer/remote``. The person's only.
  package func addressBooks(ofAccount id: ObjectID) throws(StoreError) -> [ContactContainer] {
    try session.requireOwner("read accounts")
    let book = try contactsBook()
    return try session.read(records: false) { txn, _, _ in
      try Self.accountContainers(id, book, in: txn)
    }
  }

  /// The names the cards of the account's address book `containerID` are held under (a card's
  /// name on the server): what a complete listing of its collection is compared with. Cards made
  /// here and not sent yet are left out: the server does not hold them, and a listing without
  /// them does not remove them.
  package func remoteCardNames(inContainer containerID: ObjectID) throws(StoreError) -> Set<String> {
    try session.requireOwner("sync accounts")
    let book = try contactsBook()
    let outbox = try session.store.projection(OutboxProjection.self)
    return try session.read(records: false) { txn, _, _ in
      var names: Set<String> = []
      for kind in [ContactObjectKind.contact, .group] {
        for id in try book.members(ofContainer: containerID, kind, in: txn) {
          guard let stored = try book.state(kind, id, in: txn), stored.isLive,
            let name = try stored.state.string(28) ?? stored.state.string(1)
          else { continue }
          if let waiting = try outbox.pending(name, inCalendar: containerID, in: txn), waiting.base == nil { continue }
          names.insert(name)
        }
      }
      return names
    }
  }

  /// The live containers of the account `id` in the snapshot `txn`, in title order.
  static func accountContainers(
    _ id: ObjectID, _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws -> [ContactContainer] {
    Self.inTitleOrder(
      try book.containerIDs(in: txn).compactMap { try book.container($0, in: txn) }.filter { $0.accountID == id })
  }

  /// The address book of the account `accountID` mirroring its server's collection at `url`, made
  /// now when there is none, its title brought to the server's and taking changes when the server
  /// lets the user change the collection (`writable`): written by the account (`source:ID`). The
  /// person's only.
  package func mirrorAddressBook(
    at url: String, title: String, writable: Bool, ofAccount accountID: ObjectID
  ) throws(StoreError) -> ContactContainer {
    try session.requireOwner("sync accounts")
    let book = try contactsBook()
    return try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(.source, accountID, in: txn), stored.isLive else {
        throw StoreError.calendar(.accountNotFound(accountID))
      }
      let principal = Principal.source(accountID.description)
      let existing = try txn.reading { txn in
        try Self.accountContainers(accountID, book, in: txn).first { $0.remote?.url == url }
      }
      let wanted = title.isEmpty ? url : title
      var container: ContactContainer
      if let existing {
        guard existing.title != wanted || existing.allowsContentModifications != writable else { return existing }
        container = existing
        container.title = wanted
      } else {
        container = ContactContainer(title: wanted)
        container.accountID = accountID
        container.remote = RemoteCollection(url: url)
        container.creationDate = appender.timestamp
      }
      container.allowsContentModifications = writable
      try Self.checkContactText(container.title, "the address book's title")
      return try Self.appendSaved(container, principal, &txn, &appender)
    }
  }

  /// Removes the account's address book `id`, whose collection is gone from the server, with every
  /// contact and group in it: written by the account. The person's only.
  package func removeAddressBookMirror(_ id: ObjectID) throws(StoreError) {
    try session.requireOwner("sync accounts")
    let book = try contactsBook()
    try write(nil) { txn, appender, _ in
      guard let container = try book.container(id, in: txn), let account = container.accountID else {
        throw StoreError.contact(.containerNotFound(id))
      }
      try Self.appendRemoved(container, .source(account.description), book, &txn, &appender)
    }
  }

  /// Applies `changes` from the collection the account's address book `containerID` mirrors, in one
  /// transaction, every record made by the account (`source:ID`): a card is stored under its name
  /// as a CardDAV client's card is (a contact keeps its identifier and groups; a group card's
  /// members are the contacts of the book with those `UID`s, and those not there yet join when
  /// they come), its record carrying the server's `ETag`; a card the book holds with that `ETag`
  /// already, or with the same content, is not written again — so a sync resumed after a crash
  /// writes nothing twice —, and a removal removes it.
  ///
  /// A card changed here and waiting to go out (the outbox) whose server version changed too is a
  /// conflict: a ``RecordKind/remoteConflict`` record first, then the server's version, the local
  /// one kept in history (`contact history`, `contact restore`). A server holding what waits
  /// (sent by a sync stopped before it recorded the delivery) is a delivery, not a conflict.
  ///
  /// A card the store refuses (its `UID` held under another name, a bad field) is not taken and is
  /// returned as quarantined; the rest is. With `completing`, the book's ``ContactContainer/remote``
  /// is saved as it in the same transaction. The person's only.
  @discardableResult
  package func applyRemoteCards(
    _ changes: [RemoteCardChange], to containerID: ObjectID, completing: RemoteCollection? = nil
  ) throws(StoreError) -> RemoteApply {
    try session.requireOwner("sync accounts")
    let book = try contactsBook()
    let outbox = try session.store.projection(OutboxProjection.self)
    return try write(nil) { txn, appender, _ in
      guard let container = try book.container(containerID, in: txn), let account = container.accountID,
        let remote = container.remote
      else { throw StoreError.contact(.containerNotFound(containerID)) }
      let source = Principal.source(account.description)
      var result = RemoteApply()
      func remove(_ name: String, _ kind: ContactObjectKind, _ txn: inout WriteTransaction) throws -> Bool {
        guard
          let (id, _) = try txn.reading({
            try Self.stored(named: name, kind: kind, book, container: containerID, in: $0)
          })
        else { return false }
        var payload = Payload()
        payload.append(tag: 1, id: id)
        try appender.append(RecordDraft(kind: kind.removeKind, principal: source, payload: payload), in: &txn)
        result.lastPosition = appender.head.position
        return true
      }
      for change in changes {
        let name: String
        let serverTag: String?
        switch change {
        case .removed(let removed): (name, serverTag) = (removed, nil)
        case .stored(let stored, let tag, _): (name, serverTag) = (stored, tag)
        }
        let held = try txn.reading { try Self.heldCard(named: name, in: containerID, book, outbox, in: $0) }
        if let waiting = try txn.reading({ try outbox.pending(name, inCalendar: containerID, in: $0) }) {
          guard waiting.base != serverTag else {
            result.unchanged += 1  // The server holds what the change was based on (or never held it).
            continue
          }
          var delivered = serverTag == nil && held == nil  // Removed on both sides.
          if case .stored(_, _, let card) = change, let held {
            delivered = try txn.reading { try Self.holds(card, named: name, held, book, in: $0) }
          }
          if delivered {
            try Self.appendCardDelivered(
              name, entityTag: serverTag, carries: waiting.last, holder: held.map { ($0.kind, $0.id) },
              container: containerID, source, &txn, &appender)
            result.lastPosition = appender.head.position
            result.unchanged += 1
            continue
          }
          try EventStore.appendConflict(
            name, localVersion: waiting.last, base: waiting.base, serverTag: serverTag, collection: containerID, source,
            &txn, &appender)
          result.conflicts.append(name)
          result.lastPosition = appender.head.position
        } else if let held, let serverTag, held.entityTag == serverTag {
          result.unchanged += 1  // The server's version, held already.
          continue
        }
        switch change {
        case .removed(let name):
          let contact = try remove(name, .contact, &txn)
          let group = try remove(name, .group, &txn)
          if contact || group { result.removed += 1 }
        case .stored(let name, let tag, let card):
          let before = appender.head.position
          do {
            let created: Bool
            switch card {
            case .contact(let contact):
              try Self.check(contact)
              try EventStore.checkText(name, field: "the resource name")
              // A name that held a group's card on the server now holds a contact's.
              _ = try remove(name, .group, &txn)
              created =
                try Self.putContact(
                  contact, named: name, in: containerID, condition: .none, scope: nil, entityTag: tag, source, book,
                  &txn, &appender
                ).created
            case .group(let group):
              try Self.check(group.group)
              for uid in group.memberUIDs { try Self.checkContactText(uid, "a member's UID") }
              _ = try remove(name, .contact, &txn)
              created =
                try Self.putGroup(
                  group, named: name, in: containerID, condition: .none, entityTag: tag, source, book, &txn, &appender
                ).created
            }
            if appender.head.position == before {
              result.unchanged += 1
            } else {
              result.lastPosition = appender.head.position
              if created { result.created += 1 } else { result.updated += 1 }
            }
            // The card's own record was not written (it said what the book holds): its `ETag` is
            // recorded by itself, so that the next sync finds it held.
            let now = try txn.reading { try Self.heldCard(named: name, in: containerID, book, outbox, in: $0) }
            if let now, now.entityTag != tag {
              try Self.appendCardDelivered(
                name, entityTag: tag, carries: appender.head.position, holder: (now.kind, now.id),
                container: containerID, source, &txn, &appender)
              result.lastPosition = appender.head.position
            }
          } catch let error as StoreError where appender.head.position == before {
            // Refused before anything of it was written: the rest of the book syncs.
            result.quarantined.append(.init(name: name, reason: error.description))
          }
        }
      }
      if var completing {
        completing.url = remote.url
        completing.isNew = false
        completing.quarantined = Array(
          (completing.quarantined + result.quarantined).prefix(RemoteCollection.maximumQuarantined))
        if completing != remote {
          var saved = container
          saved.remote = completing
          result.lastPosition = try Self.appendSaved(saved, source, &txn, &appender).version
        }
      }
      return result
    }
  }

  /// The card the account's address book `containerID` holds at `name`: a contact's, else a
  /// group's, with the server's `ETag` of it as the outbox knows it.
  static func heldCard(
    named name: String, in containerID: ObjectID, _ book: ContactsProjection, _ outbox: OutboxProjection,
    in txn: borrowing ReadTransaction
  ) throws -> (kind: OutgoingCard.Holder, id: ObjectID, entityTag: String?)? {
    if let (id, _) = try stored(named: name, book, container: containerID, in: txn) {
      return (.contact, id, try outbox.card(.contact, id, in: txn)?.entityTag)
    }
    if let (id, _) = try stored(named: name, kind: .group, book, container: containerID, in: txn) {
      return (.group, id, try outbox.card(.group, id, in: txn)?.entityTag)
    }
    return nil
  }

  /// Whether the card `held` says what `card` does: a contact's fields (as a `PUT` of it would
  /// leave them), a group's name, kept properties and members.
  static func holds(
    _ card: AddressObject, named name: String, _ held: (kind: OutgoingCard.Holder, id: ObjectID, entityTag: String?),
    _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws -> Bool {
    switch (card, held.kind) {
    case (.contact(let contact), .contact):
      guard let stored = try book.state(.contact, held.id, in: txn) else { return false }
      let current = try ContactCodec.decodeContact(id: held.id, version: stored.version, modified: nil, stored.state)
      var incoming = contact
      (incoming.containerID, incoming.groupIDs, incoming.clientProperties) =
        (current.containerID, current.groupIDs, current.clientProperties)
      incoming.resourceName = name == contact.externalID ? nil : name
      var kept = current
      kept.creationDate = nil
      incoming.creationDate = nil
      return sameContent(kept, incoming)
    case (.group(let group), .group):
      guard let stored = try book.state(.group, held.id, in: txn) else { return false }
      let current = try groupCard(held.id, stored, book, in: txn)
      return current.group.name == group.group.name
        && current.group.additionalProperties == group.group.additionalProperties
        && Set(current.memberUIDs) == Set(group.memberUIDs.map(VCardText.bareUID))
    default:
      return false
    }
  }
}
