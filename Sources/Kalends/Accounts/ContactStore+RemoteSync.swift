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
  /// name on the server): what a complete listing of its collection is compared with.
  package func remoteCardNames(inContainer containerID: ObjectID) throws(StoreError) -> Set<String> {
    try session.requireOwner("sync accounts")
    let book = try contactsBook()
    return try session.read(records: false) { txn, _, _ in
      var names: Set<String> = []
      for kind in [ContactObjectKind.contact, .group] {
        for id in try book.members(ofContainer: containerID, kind, in: txn) {
          guard let stored = try book.state(kind, id, in: txn), stored.isLive,
            let name = try stored.state.string(28) ?? stored.state.string(1)
          else { continue }
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
  /// now when there is none, its title brought to the server's: written by the account
  /// (`source:ID`). The person's only.
  package func mirrorAddressBook(at url: String, title: String, ofAccount accountID: ObjectID) throws(StoreError)
    -> ContactContainer
  {
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
        guard existing.title != wanted else { return existing }
        container = existing
        container.title = wanted
      } else {
        container = ContactContainer(title: wanted)
        container.accountID = accountID
        container.remote = RemoteCollection(url: url)
        container.creationDate = appender.timestamp
      }
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
  /// they come), a card equal to what the book holds writes nothing — so a sync resumed after a
  /// crash writes nothing twice —, and a removal removes it. A card the store refuses (its `UID`
  /// held under another name, a bad field) is not taken and is returned as quarantined; the rest
  /// is. With `completing`, the book's ``ContactContainer/remote`` is saved as it in the same
  /// transaction. The person's only.
  @discardableResult
  package func applyRemoteCards(
    _ changes: [RemoteCardChange], to containerID: ObjectID, completing: RemoteCollection? = nil
  ) throws(StoreError) -> RemoteApply {
    try session.requireOwner("sync accounts")
    let book = try contactsBook()
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
        switch change {
        case .removed(let name):
          let contact = try remove(name, .contact, &txn)
          let group = try remove(name, .group, &txn)
          if contact || group { result.removed += 1 }
        case .stored(let name, _, let card):
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
                  contact, named: name, in: containerID, condition: .none, scope: nil, source, book, &txn, &appender
                ).created
            case .group(let group):
              try Self.check(group.group)
              for uid in group.memberUIDs { try Self.checkContactText(uid, "a member's UID") }
              _ = try remove(name, .contact, &txn)
              created =
                try Self.putGroup(group, named: name, in: containerID, condition: .none, source, book, &txn, &appender)
                .created
            }
            if appender.head.position == before {
              result.unchanged += 1
            } else {
              result.lastPosition = appender.head.position
              if created { result.created += 1 } else { result.updated += 1 }
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
}
