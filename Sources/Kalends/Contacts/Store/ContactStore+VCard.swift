internal import LMDB

extension ContactStore {
  /// Imports the contacts and groups of a vCard 3.0 or 4.0 file in one transaction: all or nothing.
  ///
  /// A card whose `UID` names a stored contact (or group) replaces its fields; others are created.
  /// The members of a group in the file are the contacts its `MEMBER` lines name, in the file or
  /// the store; memberships of groups the file does not hold are kept. A card equal to what is
  /// stored writes nothing, so importing a file twice changes nothing the second time.
  ///
  /// - Throws: ``StoreError/vCard(_:)`` naming the line of the first problem (nothing imported);
  ///   an access error for an app without access to contacts (recorded).
  @discardableResult
  public func importVCards(_ bytes: [UInt8]) throws(StoreError) -> VCardImport {
    let cards: [VCardCard]
    do { cards = try VCardReader.cards(bytes) } catch { throw .vCard(error) }
    for card in cards {
      do {
        switch card {
        case .contact(let contact, _): try Self.check(contact)
        case .group(let group, _, _): try Self.check(group)
        }
      } catch {
        throw .vCard(VCardError(line: card.line, .refused("\(error)")))
      }
    }
    let actor = self.actor
    let book = try contactsBook()
    let hasGroups = cards.contains { if case .group = $0 { true } else { false } }
    return try write(.changeChosen(.contacts, "import contacts")) { txn, appender, _ in
      let scope = try txn.reading { try contactScope(book, in: $0) }
      // A limited session sees no groups, so it may not import them either.
      if scope != nil, hasGroups { throw Self.outsideScope(actor, "import groups") }
      var summary = VCardImport()
      // Groups first: the contacts' memberships name them.
      var fileGroups: [ObjectID] = []
      var groupsOfMember: [String: [ObjectID]] = [:]
      for case .group(var group, let members, _) in cards {
        if let (id, stored) = try Self.stored(.groupExternalID, group.externalID, .group, book, &txn) {
          let current = try ContactCodec.decodeGroup(id: id, version: stored.version, modified: nil, stored.state)
          group.id = id
          group.version = stored.version
          (group.resourceName, group.pendingMembers) = (current.resourceName, current.pendingMembers)
          if (current.name, current.additionalProperties) == (group.name, group.additionalProperties) {
            summary.groupsUnchanged += 1
          } else {
            group = try Self.saveGroup(group, overwrite: true, actor, book, &txn, &appender)
            summary.groupsUpdated += 1
          }
        } else {
          group = try Self.saveGroup(group, overwrite: false, actor, book, &txn, &appender)
          summary.groupsCreated += 1
        }
        fileGroups.append(group.id)
        for member in members { groupsOfMember[member, default: []].append(group.id) }
      }
      // A contact's CATEGORIES (Google's labels) are groups by name: found, else made — but for a
      // limited session, which sees no groups — so an export's labels arrive as the person's groups.
      var groupsNamed: [String: ObjectID] = [:]
      if scope == nil {
        for id in try txn.reading({ try book.all(.group, in: $0) }) {
          guard let stored = try book.state(.group, id, in: txn) else { continue }
          let group = try ContactCodec.decodeGroup(id: id, version: stored.version, modified: nil, stored.state)
          if groupsNamed[group.name] == nil { groupsNamed[group.name] = id }
        }
      }
      var seen: Set<String> = []
      for case .contact(var contact, _) in cards {
        let uid = VCardText.bareUID(contact.externalID)
        seen.insert(uid)
        var current: Contact?
        if let (id, stored) = try Self.stored(.contactExternalID, contact.externalID, .contact, book, &txn),
          scope?.contains(id) ?? true
        {
          current = try ContactCodec.decodeContact(id: id, version: stored.version, modified: nil, stored.state)
          contact.id = id
          contact.version = stored.version
          contact.resourceName = current?.resourceName
        }
        let kept = (current?.groupIDs ?? []).filter { !fileGroups.contains($0) }
        contact.groupIDs = kept + (groupsOfMember[uid] ?? [])
        if scope == nil {
          for name in Self.categories(of: contact) {
            var id = groupsNamed[name]
            if id == nil {
              let made = try Self.saveGroup(ContactGroup(name: name), overwrite: false, actor, book, &txn, &appender)
              summary.groupsCreated += 1
              groupsNamed[name] = made.id
              id = made.id
            }
            if let id, !contact.groupIDs.contains(id) { contact.groupIDs.append(id) }
          }
        }
        if var current {
          current.groupIDs = try current.groupIDs.filter { try book.isLive(.group, $0, in: txn) }
          current.creationDate = nil
          if Self.sameContent(current, contact) {
            summary.contactsUnchanged += 1
            continue
          }
          summary.contactsUpdated += 1
        } else {
          summary.contactsCreated += 1
        }
        _ = try Self.saveContact(contact, overwrite: true, scope: scope, actor, book, &txn, &appender)
      }
      // Members of the file's groups that are stored but not in the file.
      for (member, groups) in groupsOfMember where !seen.contains(member) {
        guard let (id, stored) = try Self.stored(.contactExternalID, member, .contact, book, &txn) else {
          summary.unknownMembers += groups.count
          continue
        }
        var contact = try ContactCodec.decodeContact(id: id, version: stored.version, modified: nil, stored.state)
        let missing = groups.filter { !contact.groupIDs.contains($0) }
        guard !missing.isEmpty else { continue }
        contact.groupIDs += missing
        _ = try Self.saveContact(contact, overwrite: true, scope: nil, actor, book, &txn, &appender)
        summary.contactsUpdated += 1
      }
      return summary
    }
  }

  /// The names of a contact's `CATEGORIES` (vCard's labels: Google writes its contact labels so),
  /// each once, in order, without the labels Google gives every contact (`myContacts`, `starred`).
  static func categories(of contact: Contact) -> [String] {
    var names: [String] = []
    for line in contact.additionalProperties {
      let upper = line.uppercased()
      guard upper.hasPrefix("CATEGORIES:") || upper.hasPrefix("CATEGORIES;") else { continue }
      guard let colon = line.firstIndex(of: ":") else { continue }
      var current = ""
      var escaped = false
      for character in line[line.index(after: colon)...] {
        if escaped {
          current.append(character == "n" || character == "N" ? "\n" : character)
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "," {
          names.append(current)
          current = ""
        } else {
          current.append(character)
        }
      }
      names.append(current)
    }
    var seen: Set<String> = []
    func trimmed(_ name: String) -> String {
      String(name.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
    return names.map(trimmed).filter { name in
      !name.isEmpty && !["myContacts", "starred"].contains(name) && seen.insert(name).inserted
    }
  }

  /// Whether two contacts hold the same fields (identity, versions and dates aside).
  static func sameContent(_ a: Contact, _ b: Contact) -> Bool {
    var (a, b) = (a, b)
    (a.id, a.version, a.creationDate, a.lastModifiedDate) = (b.id, b.version, b.creationDate, b.lastModifiedDate)
    return a == b
  }

  /// The live object of `kind` whose external identifier (bare of `urn:uuid:`) is `external`, with
  /// its state; with `scope`, only among those in it.
  static func stored(
    _ field: ContactSearchKey.Field, _ external: String, _ kind: ContactObjectKind, _ book: ContactsProjection,
    scope: Set<ObjectID>? = nil, container: ObjectID? = nil, _ txn: inout WriteTransaction
  ) throws -> (ObjectID, StoredContact)? {
    try txn.reading { try stored(field, external, kind, book, scope: scope, container: container, in: $0) }
  }

  /// ``stored(_:_:_:_:scope:container:_:)`` in a read snapshot.
  static func stored(
    _ field: ContactSearchKey.Field, _ external: String, _ kind: ContactObjectKind, _ book: ContactsProjection,
    scope: Set<ObjectID>? = nil, container: ObjectID? = nil, in txn: borrowing ReadTransaction
  ) throws -> (ObjectID, StoredContact)? {
    for candidate in Set([external, VCardText.bareUID(external), "urn:uuid:" + VCardText.bareUID(external)]) {
      let prefix = ContactSearchKey.externalKey(field, candidate, nil)
      let keys = try txn.withCursor(on: book.search) { try $0.keys(withPrefix: prefix) }
      for key in keys {
        let id = ObjectID(bytes: key[(key.count - 16)...])!
        if let scope, !scope.contains(id) { continue }
        guard let stored = try book.state(kind, id, in: txn), stored.isLive,
          try stored.state.string(1).map(VCardText.bareUID) == VCardText.bareUID(external),
          try container.map({ try ContactCodec.container(of: stored.state) == $0 }) ?? true
        else { continue }
        return (id, stored)
      }
    }
    return nil
  }

  /// Every contact (with `groups`, every group) as one vCard file of `version`, in the order of
  /// ``contacts(matching:)``; groups after the contacts, their members by `UID`.
  public func exportVCards(
    _ search: ContactSearch = .all, version: VCardVersion = .v3, groups includeGroups: Bool = true
  ) throws(StoreError) -> String {
    let contacts = try contacts(matching: search)
    var writer = VCardWriter(version: version)
    for contact in contacts { writer.write(contact) }
    if includeGroups {
      for group in try groups() {
        let members = contacts.filter { $0.groupIDs.contains(group.id) }.map(\.externalID)
        writer.write(group, members: members)
      }
    }
    return writer.text
  }
}
