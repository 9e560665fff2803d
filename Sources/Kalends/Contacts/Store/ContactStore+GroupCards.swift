internal import LMDB

/// Groups as CardDAV address object resources (``GroupCard``), beside the contacts of the same
/// address book: read by name, stored from a client's card with its members, removed by name. A
/// session with limited access to contacts sees none of them and may store none (as Contacts hides
/// groups from a limited app: their names and members would tell of contacts it may not see).
extension ContactStore {
  /// The group cards of the container `container`, by name; empty for a session that does not see
  /// groups.
  package func groupCards(in container: ObjectID = ContactContainer.localID) throws(StoreError) -> [GroupCard] {
    try readContacts("read groups") { txn, view in
      guard view.seesGroups else { return [] }
      var cards: [GroupCard] = []
      for id in try view.book.members(ofContainer: container, .group, in: txn) {
        if let stored = try view.book.state(.group, id, in: txn) {
          cards.append(try Self.groupCard(id, stored, view.book, in: txn))
        }
      }
      return cards.sorted { $0.name < $1.name }
    }
  }

  /// The group card a CardDAV client finds at `name` (`/dav/addressbooks/contacts/NAME.vcf`): the
  /// group stored under that name (``ContactGroup/resourceName``), else the one whose `UID` it is and
  /// that has no name of its own; `nil` when there is none or this session does not see groups.
  package func groupCard(
    named name: String, in container: ObjectID = ContactContainer.localID
  ) throws(StoreError) -> GroupCard? {
    try readContacts("read groups") { txn, view in
      guard view.seesGroups,
        let (id, stored) = try Self.stored(named: name, kind: .group, view.book, container: container, in: txn)
      else {
        return nil
      }
      return try Self.groupCard(id, stored, view.book, in: txn)
    }
  }

  /// Stores a client's group card under `name` (by default its `UID`) — as a CardDAV `PUT` does — in
  /// one transaction: the group's name and kept properties replace those of the group at that name
  /// (keeping its identifier), or a group is created; then each contact the card names by `UID` and
  /// that is not a member joins (a save of that contact), and each member it does not name leaves.
  /// `UID`s no contact holds are kept with the group (kept in its state): the card
  /// comes back as written, and a contact stored later with such a `UID` joins the group. A card
  /// equal to what is stored writes nothing.
  ///
  /// `condition` is checked against the stored card's ``GroupCard/contentVersion`` in the same
  /// transaction (``CalendarError/objectConditionFailed(_:)``). A `UID` another card holds, a
  /// contact's or a group's, is refused (``CalendarError/uidInUse(uid:name:)``), and so is a name
  /// holding a contact (``ContactError/nameHeldByOtherKind(name:holder:)``). A session with limited
  /// access to contacts is refused, and the refusal recorded.
  ///
  /// Returns the card as stored, and whether the group was new.
  @discardableResult
  package func putGroup(
    _ card: GroupCard, named name: String? = nil, in container: ObjectID = ContactContainer.localID,
    condition: ObjectCondition = .none
  ) throws(StoreError) -> (card: GroupCard, created: Bool) {
    try Self.check(card.group)
    for uid in card.memberUIDs { try Self.checkContactText(uid, "a member's UID") }
    let name = name ?? card.group.externalID
    guard !name.isEmpty else { throw .calendar(.invalidCalendarObject("the resource has no name")) }
    try EventStore.checkText(name, field: "the resource name")
    let actor = self.actor
    let book = try contactsBook()
    return try write(.changeChosen(.contacts, "store a group")) { txn, appender, _ in
      if try txn.reading({ try contactScope(book, in: $0) }) != nil { throw Self.outsideScope(actor, "store a group") }
      return try Self.putGroup(card, named: name, in: container, condition: condition, actor, book, &txn, &appender)
    }
  }

  /// ``putGroup(_:named:in:condition:)`` inside a write, for a session with full access; an
  /// account's sync gives the server's `entityTag` of the card, kept with the group's record.
  static func putGroup(
    _ card: GroupCard, named name: String, in container: ObjectID, condition: ObjectCondition,
    entityTag: String? = nil, _ actor: Principal, _ book: ContactsProjection, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> (card: GroupCard, created: Bool) {
    try Self.checkContainer(container, scope: nil, actor, book, in: &txn)
    if try txn.reading({ try Self.stored(named: name, book, container: container, in: $0) }) != nil {
      throw StoreError.contact(.nameHeldByOtherKind(name: name, holder: "a contact"))
    }
    let current = try txn.reading { txn -> GroupCard? in
      guard let (id, stored) = try Self.stored(named: name, kind: .group, book, container: container, in: txn)
      else { return nil }
      return try Self.groupCard(id, stored, book, in: txn)
    }
    guard condition.holds(for: current?.contentVersion) else {
      throw StoreError.calendar(.objectConditionFailed(name))
    }
    let uid = card.group.externalID
    if let (id, stored) = try Self.stored(.groupExternalID, uid, .group, book, container: container, &txn),
      id != current?.group.id
    {
      throw StoreError.calendar(
        .uidInUse(uid: uid, name: try stored.state.string(28) ?? stored.state.string(1) ?? uid))
    }
    if let (_, stored) = try Self.stored(.contactExternalID, uid, .contact, book, container: container, &txn) {
      throw StoreError.calendar(
        .uidInUse(uid: uid, name: try stored.state.string(28) ?? stored.state.string(1) ?? uid))
    }
    // The members named, and the UIDs no contact holds.
    var wanted: [ObjectID] = []
    var pending: [String] = []
    var named: Set<String> = []
    for member in card.memberUIDs where named.insert(VCardText.bareUID(member)).inserted {
      if let (id, _) = try Self.stored(.contactExternalID, member, .contact, book, container: container, &txn) {
        if !wanted.contains(id) { wanted.append(id) }
      } else {
        pending.append(VCardText.bareUID(member))
      }
    }
    var group = card.group
    group.containerID = container
    group.resourceName = name == group.externalID ? nil : name
    group.pendingMembers = pending.sorted()
    if let current {
      group.id = current.group.id
      group.version = current.group.version
      group.clientProperties = current.group.clientProperties
    } else {
      group.id = .random()
    }
    if var stored = current?.group {
      (stored.creationDate, stored.lastModifiedDate) = (group.creationDate, group.lastModifiedDate)
      if stored != group {
        group = try Self.saveGroup(group, overwrite: true, entityTag: entityTag, actor, book, &txn, &appender)
      }
    } else {
      group = try Self.saveGroup(group, overwrite: true, entityTag: entityTag, actor, book, &txn, &appender)
    }
    let members = try txn.reading { try book.members(of: group.id, in: $0) }
    for id in wanted where !members.contains(id) {
      guard var contact = try txn.reading({ try Self.liveContact(id, book, in: $0) }) else { continue }
      contact.groupIDs.append(group.id)
      _ = try Self.saveContact(contact, overwrite: false, scope: nil, actor, book, &txn, &appender)
    }
    for id in members where !wanted.contains(id) {
      guard var contact = try txn.reading({ try Self.liveContact(id, book, in: $0) }) else { continue }
      contact.groupIDs.removeAll { $0 == group.id }
      _ = try Self.saveContact(contact, overwrite: false, scope: nil, actor, book, &txn, &appender)
    }
    let saved = try txn.reading { txn -> GroupCard in
      guard let entry = try book.state(.group, group.id, in: txn) else {
        throw StoreError.contact(.groupNotFound(group.id))
      }
      return try Self.groupCard(group.id, entry, book, in: txn)
    }
    return (saved, current == nil)
  }

  /// Removes the group a CardDAV client finds at `name` (`groupCard(named:in:)`) when `condition`
  /// holds for its ``GroupCard/contentVersion``, in one transaction; its members stay, outside it. A
  /// missing one fails the condition `ObjectCondition.present(matching:)` and is otherwise
  /// ``CalendarError/objectConditionFailed(_:)`` too: there was nothing to remove.
  package func removeGroup(
    named name: String, in container: ObjectID = ContactContainer.localID, condition: ObjectCondition = .none
  ) throws(StoreError) {
    let actor = self.actor
    let book = try contactsBook()
    try write(.changeChosen(.contacts, "remove a group")) { txn, appender, _ in
      if try txn.reading({ try contactScope(book, in: $0) }) != nil { throw Self.outsideScope(actor, "remove a group") }
      let current = try txn.reading { txn -> GroupCard? in
        guard let (id, stored) = try Self.stored(named: name, kind: .group, book, container: container, in: txn)
        else { return nil }
        return try Self.groupCard(id, stored, book, in: txn)
      }
      guard let current, condition.holds(for: current.contentVersion) else {
        throw StoreError.calendar(.objectConditionFailed(name))
      }
      try txn.reading { try Self.checkWritable(container, actor, book, in: $0) }
      var payload = Payload()
      payload.append(tag: 1, id: current.group.id)
      try appender.append(RecordDraft(kind: .groupRemoved, principal: actor, payload: payload), in: &txn)
    }
  }

  /// The card of the live group `id`: its members' `UID`s, then the pending ones no contact holds.
  static func groupCard(
    _ id: ObjectID, _ stored: StoredContact, _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws -> GroupCard {
    let group = try ContactCodec.decodeGroup(id: id, version: stored.version, modified: stored.modified, stored.state)
    var uids: Set<String> = []
    for member in try book.members(of: id, in: txn) {
      if let entry = try book.state(.contact, member, in: txn), entry.isLive, let uid = try entry.state.string(1) {
        uids.insert(VCardText.bareUID(uid))
      }
    }
    for uid in group.pendingMembers where !uids.contains(uid) {
      // A contact of its container holds it now and is not a member: it left, or was stored by
      // another way.
      if try Self.stored(.contactExternalID, uid, .contact, book, container: group.containerID, in: txn) == nil {
        uids.insert(uid)
      }
    }
    return GroupCard(group: group, memberUIDs: uids.sorted())
  }

  /// The live groups of `container` whose stored card waits for a contact with the `UID` `uid`.
  static func groupsAwaiting(
    _ uid: String, in container: ObjectID, _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    let prefix = ContactSearchKey.externalKey(.pendingMember, VCardText.bareUID(uid), nil)
    return try txn.withCursor(on: book.search) { try $0.keys(withPrefix: prefix) }.compactMap { key in
      let id = ObjectID(bytes: key[(key.count - 16)...])!
      return try book.container(of: .group, id, in: txn) == container ? id : nil
    }
  }

  /// After the contact `removed` (its state before the removal) was removed: the groups of its
  /// container whose card named its `UID` before it existed forget it (a save of each), so that
  /// their cards no longer list it — a member removed leaves the group's card, as in Contacts.
  static func forgetAwaited(
    _ removed: StoredContact, _ actor: Principal, _ book: ContactsProjection, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws {
    guard let uid = try removed.state.string(1) else { return }
    let container = try ContactCodec.container(of: removed.state)
    let bare = VCardText.bareUID(uid)
    for id in try txn.reading({ try groupsAwaiting(uid, in: container, book, in: $0) }) {
      guard let stored = try book.state(.group, id, in: txn), stored.isLive else { continue }
      var group = try ContactCodec.decodeGroup(
        id: id, version: stored.version, modified: stored.modified, stored.state)
      group.pendingMembers.removeAll { $0 == bare }
      _ = try saveGroup(group, overwrite: true, actor, book, &txn, &appender)
    }
  }
}
