internal import LMDB

extension ContactStore {
  /// The group `id`, or `nil` when there is none or it was removed.
  public func group(withID id: ObjectID) throws(StoreError) -> ContactGroup? {
    try readContacts("read groups") { txn, view in
      view.seesGroups ? try Self.liveGroup(id, view.book, in: txn) : nil
    }
  }

  /// Every group, by name then identifier.
  public func groups() throws(StoreError) -> [ContactGroup] {
    try readContacts("read groups") { txn, view in
      guard view.seesGroups else { return [] }
      return try view.book.all(.group, in: txn).compactMap { try Self.liveGroup($0, view.book, in: txn) }
        .sorted { (ContactSearchKey.folded($0.name), $0.id) < (ContactSearchKey.folded($1.name), $1.id) }
    }
  }

  static func liveGroup(_ id: ObjectID, _ book: ContactsProjection, in txn: borrowing ReadTransaction) throws
    -> ContactGroup?
  {
    guard let stored = try book.state(.group, id, in: txn), stored.isLive else { return nil }
    return try ContactCodec.decodeGroup(id: id, version: stored.version, modified: stored.modified, stored.state)
  }

  /// Creates or renames a group and returns it as saved.
  @discardableResult
  public func save(_ group: ContactGroup, overwrite: Bool = false) throws(StoreError) -> ContactGroup {
    try Self.check(group)
    let actor = self.actor
    let book = try contactsBook()
    return try write(.change(.contacts, "save a group")) { txn, appender, _ in
      try Self.saveGroup(group, overwrite: overwrite, actor, book, &txn, &appender)
    }
  }

  static func check(_ group: ContactGroup) throws(StoreError) {
    for (value, field) in [(group.name, "the group's name"), (group.externalID, "the external identifier")] {
      try checkContactText(value, field)
      if value.isEmpty { throw .contact(.invalidField(field: field, reason: "is empty")) }
    }
    try EventStore.checkClientProperties(group.clientProperties)
  }

  static func saveGroup(
    _ group: ContactGroup, overwrite: Bool, entityTag: String? = nil, _ actor: Principal, _ book: ContactsProjection,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> ContactGroup {
    var saved = group
    var change = ItemChange.created
    if let stored = try book.state(.group, group.id, in: txn) {
      try checkVersion(group.id, fetched: group.version, stored: stored, overwrite: overwrite)
      saved.creationDate = try stored.state.signed(27).map(Timestamp.init(rawValue:))
      // A group stays in the container it was made in.
      saved.containerID = try ContactCodec.container(of: stored.state)
      change = .modified
    } else {
      saved.creationDate = appender.timestamp
      try checkContainer(saved.containerID, scope: nil, actor, book, in: &txn)
    }
    try txn.reading { try checkWritable(saved.containerID, actor, book, in: $0) }
    var payload = Payload()
    payload.append(tag: 1, id: saved.id)
    payload.append(tag: 3, unsigned: change.rawValue)
    payload.append(tag: 5, message: ContactCodec.encode(saved))
    payload.append(tag: 9, optional: entityTag)
    let header = try appender.append(RecordDraft(kind: .groupSaved, principal: actor, payload: payload), in: &txn)
    saved.version = header.position
    saved.lastModifiedDate = header.timestamp
    return saved
  }

  /// Removes a group; its members stay, outside it.
  public func remove(_ group: ContactGroup, overwrite: Bool = false) throws(StoreError) {
    let actor = self.actor
    let book = try contactsBook()
    try write(.change(.contacts, "remove a group")) { txn, appender, _ in
      guard let stored = try book.state(.group, group.id, in: txn) else {
        throw StoreError.contact(.groupNotFound(group.id))
      }
      try Self.checkVersion(group.id, fetched: group.version, stored: stored, overwrite: overwrite)
      try txn.reading { try Self.checkWritable(try ContactCodec.container(of: stored.state), actor, book, in: $0) }
      var payload = Payload()
      payload.append(tag: 1, id: group.id)
      try appender.append(RecordDraft(kind: .groupRemoved, principal: actor, payload: payload), in: &txn)
    }
  }

  /// Adds the contact `contactID` to the group `groupID` (Contacts' `addMember(_:to:)`): a save of
  /// the contact at its stored version. Returns the contact as saved (unchanged when it was a
  /// member already).
  @discardableResult
  public func addMember(_ contactID: ObjectID, to groupID: ObjectID) throws(StoreError) -> Contact {
    try changeMembership(contactID, groupID, "add a contact to a group") { $0.contains(groupID) ? nil : $0 + [groupID] }
  }

  /// Takes the contact `contactID` out of the group `groupID` (Contacts' `removeMember(_:from:)`).
  @discardableResult
  public func removeMember(_ contactID: ObjectID, from groupID: ObjectID) throws(StoreError) -> Contact {
    try changeMembership(contactID, groupID, "remove a contact from a group") { groups in
      groups.contains(groupID) ? groups.filter { $0 != groupID } : nil
    }
  }

  private func changeMembership(
    _ contactID: ObjectID, _ groupID: ObjectID, _ operation: String, _ change: ([ObjectID]) -> [ObjectID]?
  ) throws(StoreError) -> Contact {
    let actor = self.actor
    let book = try contactsBook()
    return try write(.change(.contacts, operation)) { txn, appender, _ in
      guard try book.isLive(.group, groupID, in: txn) else { throw StoreError.contact(.groupNotFound(groupID)) }
      guard let contact = try txn.reading({ try Self.liveContact(contactID, book, in: $0) }) else {
        throw StoreError.contact(.contactNotFound(contactID))
      }
      guard let groups = change(contact.groupIDs) else { return contact }
      var changed = contact
      changed.groupIDs = groups
      return try Self.saveContact(changed, overwrite: false, scope: nil, actor, book, &txn, &appender)
    }
  }

  /// Brings a fetched group up to date; `false` (refetch) when it was removed or this session can
  /// no longer read contacts.
  public func refresh(_ group: inout ContactGroup) throws(StoreError) -> Bool {
    let id = group.id
    let updated = try session.refreshed(
      group, id, at: group.version, .groupSaved, edits: .group, versionOf: \.version,
      fetch: { () throws(StoreError) -> ContactGroup? in try self.group(withID: id) },
      decode: { (id, fields, header) throws(StoreError) -> ContactGroup in
        try ContactCodec.decodeGroup(
          id: id, version: header.position, modified: header.timestamp,
          try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
      })
    guard let updated else { return false }
    group = updated
    return true
  }
}
