internal import LMDB

extension ContactStore {
  /// Reads the contacts book in one snapshot, this session's access to contacts checked in it;
  /// `body` gets what the session may see (``ContactView``).
  func readContacts<R>(
    _ operation: String, records: Bool = true, _ body: (borrowing ReadTransaction, ContactView) throws -> R
  ) throws(StoreError) -> R {
    let book = try contactsBook()
    // Contacts have no write-only access, so the hidden value is never returned.
    let client = sessionClient
    return try readItems(.contacts, operation, hidden: nil, records: records) { txn, _, uses in
      try body(txn, ContactView(book: book, scope: try contactScope(book, in: txn), client: client, uses: uses))
    }!
  }

  /// For a session with limited access to contacts, the contacts it may use in the snapshot `txn`:
  /// those the person chose for it and those it created; `nil` when it may use every contact
  /// (full access, or the owner).
  func contactScope(_ book: ContactsProjection, in txn: borrowing ReadTransaction) throws -> Set<ObjectID>? {
    guard let client = sessionClient else { return nil }
    return try permissions().contactScope(client, book: book, in: txn)
  }

  /// The contact `id`, or `nil` when there is none, it was removed, or this session may not use it
  /// (limited access: it is not among the contacts the person chose).
  public func contact(withID id: ObjectID) throws(StoreError) -> Contact? {
    try readContacts("read contacts") { txn, view in try view.contact(id, in: txn) }
  }

  /// The contacts `search` selects, sorted by family name, then given name (the display name for
  /// a card without them), then identifier.
  public func contacts(matching search: ContactSearch = .all) throws(StoreError) -> [Contact] {
    if case .name(let text) = search, ContactSearchKey.words(text).isEmpty { return [] }
    return try readContacts("read contacts") { txn, view in
      let book = view.book
      var ids: [ObjectID]
      // A name search of several words: each checked on the decoded contacts (the index answered the longest).
      var otherWords: [[UInt8]] = []
      switch search {
      case .all: ids = try view.scope.map { Array($0) } ?? book.all(.contact, in: txn)
      case .name(let text):
        let words = ContactSearchKey.words(text)
        let longest = words.max { $0.utf8.count < $1.utf8.count }!
        ids = try book.ids(.name, prefix: ContactSearchKey.clipped(longest), in: txn)
        if words.count > 1 { otherWords = words.map(ContactSearchKey.clipped) }
      case .emailAddress(let text):
        let prefix = ContactSearchKey.clipped(ContactSearchKey.email(text))
        ids = prefix.isEmpty ? [] : try book.ids(.email, prefix: prefix, in: txn)
      case .phoneNumber(let text):
        var seen: Set<ObjectID> = []
        ids = try PhoneNumberForms.prefixes(text).flatMap { try book.ids(.phone, prefix: Array($0.utf8), in: txn) }
          .filter { seen.insert($0).inserted }
      case .group(let group):
        guard view.seesGroups, try book.isLive(.group, group, in: txn) else {
          throw StoreError.contact(.groupNotFound(group))
        }
        ids = try book.members(of: group, in: txn)
      case .identifiers(let wanted): ids = Array(Set(wanted))
      }
      var found = try ids.compactMap { try view.contact($0, in: txn) }
      if !otherWords.isEmpty {
        found = found.filter { contact in
          let names = ContactSearchKey.texts(of: contact).filter { $0.0 == .name }.map(\.1)
          return otherWords.allSatisfy { word in names.contains { $0.starts(with: word) } }
        }
      }
      return Self.inNameOrder(found)
    }
  }

  /// `contacts` in the order lists are returned in: by family name, then given name (the display
  /// name for a card without them), folded, then identifier. Each contact's key is folded once.
  static func inNameOrder(_ contacts: [Contact]) -> [Contact] {
    func key(_ contact: Contact) -> (String, String) {
      let family = ContactSearchKey.folded(contact.familyName ?? "")
      let given = ContactSearchKey.folded(contact.givenName ?? "")
      return family.isEmpty && given.isEmpty ? (ContactSearchKey.folded(contact.displayName), "") : (family, given)
    }
    return contacts.map { (key($0), $0) }.sorted { a, b in a.0 != b.0 ? a.0 < b.0 : a.1.id < b.1.id }.map(\.1)
  }

  /// The live contact `id` decoded, its removed groups left out.
  static func liveContact(_ id: ObjectID, _ book: ContactsProjection, in txn: borrowing ReadTransaction) throws
    -> Contact?
  {
    guard let stored = try book.state(.contact, id, in: txn), stored.isLive else { return nil }
    var contact = try ContactCodec.decodeContact(
      id: id, version: stored.version, modified: stored.modified, stored.state)
    contact.groupIDs = try contact.groupIDs.filter { try book.isLive(.group, $0, in: txn) }
    return contact
  }

  /// Creates or changes a contact and returns it as saved.
  ///
  /// - Throws: ``ContactError/changedSinceFetched(_:fetched:current:)`` when the stored contact is
  ///   at another version than `contact` was fetched at (unless `overwrite`);
  ///   ``ContactError/removed(_:at:)`` for a removed one; ``ContactError/groupNotFound(_:)`` for a
  ///   group that does not exist; ``ContactError/invalidField(field:reason:)`` for bad text.
  @discardableResult
  public func save(_ contact: Contact, overwrite: Bool = false) throws(StoreError) -> Contact {
    try Self.check(contact)
    let actor = self.actor
    let book = try contactsBook()
    return try write(.changeChosen(.contacts, "save a contact")) { txn, appender, _ in
      let scope = try txn.reading { try contactScope(book, in: $0) }
      // The name a CardDAV client stored the contact under is the store's, not the caller's copy's
      // (a copy read at its alias holds that).
      var contact = contact
      contact.resourceName = try book.state(.contact, contact.id, in: txn).flatMap { try $0.state.string(28) }
      return try Self.saveContact(contact, overwrite: overwrite, scope: scope, actor, book, &txn, &appender)
    }
  }

  /// Saves `contact` inside a write: versions and groups checked against the stored state. With a
  /// `scope` (limited access), an existing contact outside it is refused as access denied, and
  /// group memberships stay as stored (such a session sees no groups).
  static func saveContact(
    _ contact: Contact, overwrite: Bool, scope: Set<ObjectID>?, entityTag: String? = nil, _ actor: Principal,
    _ book: ContactsProjection,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> Contact {
    var saved = contact
    var change = ItemChange.created
    var storedGroups: [ObjectID] = []
    if let stored = try book.state(.contact, contact.id, in: txn) {
      if let scope, !scope.contains(contact.id) { throw Self.outsideScope(actor, "change a contact it may not use") }
      try checkVersion(contact.id, fetched: contact.version, stored: stored, overwrite: overwrite)
      saved.creationDate = try stored.state.signed(27).map(Timestamp.init(rawValue:))
      // A contact stays in the container it was made in, whatever the caller's copy says.
      saved.containerID = try ContactCodec.container(of: stored.state)
      storedGroups = try stored.state.objectIDs(25)
      change = .modified
      // A kept formatted name (FN) goes once a name part changes: it would name someone else.
      let current = try ContactCodec.decodeContact(id: contact.id, version: stored.version, modified: nil, stored.state)
      if saved.namePartsDiffer(from: current) {
        saved.additionalProperties.removeAll {
          Contact.isFormattedName($0) && current.additionalProperties.contains($0)
        }
      }
    } else {
      saved.creationDate = appender.timestamp
      try checkContainer(saved.containerID, scope: scope, actor, book, in: &txn)
    }
    try txn.reading { try checkWritable(saved.containerID, actor, book, in: $0) }
    var groups: [ObjectID] = []
    for group in scope == nil ? contact.groupIDs : storedGroups where !groups.contains(group) {
      // A group holds contacts of its own container only.
      guard try txn.reading({ try book.container(of: .group, group, in: $0) }) == saved.containerID else {
        if scope != nil { continue }
        throw StoreError.contact(.groupNotFound(group))
      }
      groups.append(group)
    }
    // A new contact joins the groups whose card named its UID before it existed (a CardDAV client
    // may store a group before its members).
    if change == .created, scope == nil {
      let uid = contact.externalID
      let awaiting = try txn.reading { try groupsAwaiting(uid, in: saved.containerID, book, in: $0) }
      for group in awaiting where !groups.contains(group) {
        groups.append(group)
      }
    }
    saved.groupIDs = groups
    var payload = Payload()
    payload.append(tag: 1, id: saved.id)
    payload.append(tag: 3, unsigned: change.rawValue)
    payload.append(tag: 5, message: ContactCodec.encode(saved))
    payload.append(tag: 9, optional: entityTag)
    let header = try appender.append(RecordDraft(kind: .contactSaved, principal: actor, payload: payload), in: &txn)
    saved.version = header.position
    saved.lastModifiedDate = header.timestamp
    return saved
  }

  /// Refuses a new contact or group in `container` unless that container is live and the session
  /// sees it (a limited one: the local one, those holding a contact it may use, those it made).
  static func checkContainer(
    _ container: ObjectID, scope: Set<ObjectID>?, _ actor: Principal, _ book: ContactsProjection,
    in txn: inout WriteTransaction
  ) throws {
    try txn.reading { txn in
      var client: String?
      if case .client(let id) = actor { client = id }
      guard let stored = try book.container(container, in: txn),
        try ContactView.sees(stored, scope: scope, client: client, book, in: txn)
      else { throw StoreError.contact(.containerNotFound(container)) }
    }
  }

  /// Refuses `actor`'s change to what the container `container` holds when it is an account's
  /// address book (``ContactContainer/accountID``) whose server does not let the user change it
  /// (``ContactContainer/allowsContentModifications``) and `actor` is not that account:
  /// ``ContactError/containerReadOnly(_:)``, recorded as a refused attempt. What is changed in an
  /// account's other books goes out to its server (the outbox).
  static func checkWritable(
    _ container: ObjectID, _ actor: Principal, _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws {
    guard let stored = try book.container(container, in: txn), let account = stored.accountID,
      !stored.allowsContentModifications, actor != .source(account.description)
    else { return }
    throw StoreError.contact(.containerReadOnly(container))
  }

  /// Refuses `actor`'s change to the title or properties of the container `container` when it is
  /// an account's address book and `actor` is not that account: they are the server's
  /// (``ContactError/containerReadOnly(_:)``, recorded as a refused attempt).
  static func checkChangeable(
    _ container: ObjectID, _ actor: Principal, _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws {
    guard let stored = try book.container(container, in: txn), let account = stored.accountID,
      actor != .source(account.description)
    else { return }
    throw StoreError.contact(.containerReadOnly(container))
  }

  /// Refuses a save of a copy fetched at `fetched` when the stored one is removed or at another
  /// version.
  static func checkVersion(
    _ id: ObjectID, fetched: LogPosition, stored: StoredContact, overwrite: Bool
  ) throws(StoreError) {
    guard stored.isLive else { throw .contact(.removed(id, at: stored.version)) }
    if !overwrite && fetched != stored.version {
      throw .contact(.changedSinceFetched(id, fetched: fetched, current: stored.version))
    }
  }

  /// ``EventStore.checkText(_:field:)`` for a contact's or a group's field: its refusal as a ``ContactError``.
  static func checkContactText(_ value: String?, _ field: String) throws(StoreError) {
    do { try EventStore.checkText(value, field: field) } catch .calendar(.invalidText(let field, let reason)) {
      throw .contact(.invalidField(field: field, reason: reason))
    }
  }

  /// The checks a contact must pass before it is saved.
  static func check(_ contact: Contact) throws(StoreError) {
    try checkContactText(contact.externalID, "the external identifier")
    if contact.externalID.isEmpty {
      throw .contact(.invalidField(field: "the external identifier", reason: "is empty"))
    }
    for (_, path) in ContactCodec.textFields { try checkContactText(contact[keyPath: path], "a name or text field") }
    for value in contact.emailAddresses + contact.phoneNumbers + contact.urlAddresses {
      try checkContactText(value.label, "a label")
      try checkContactText(value.value, "an email address, phone number or URL")
    }
    for address in contact.postalAddresses {
      try checkContactText(address.label, "a label")
      for part in address.value.parts { try checkContactText(part, "a postal address") }
    }
    for property in contact.additionalProperties { try checkContactText(property, "a vCard property") }
    try EventStore.checkClientProperties(contact.clientProperties)
  }

  /// Removes a contact (it leaves its groups with it).
  public func remove(_ contact: Contact, overwrite: Bool = false) throws(StoreError) {
    let actor = self.actor
    let book = try contactsBook()
    try write(.changeChosen(.contacts, "remove a contact")) { txn, appender, _ in
      guard let stored = try book.state(.contact, contact.id, in: txn) else {
        throw StoreError.contact(.contactNotFound(contact.id))
      }
      if let scope = try txn.reading({ try contactScope(book, in: $0) }), !scope.contains(contact.id) {
        throw Self.outsideScope(actor, "remove a contact it may not use")
      }
      try Self.checkVersion(contact.id, fetched: contact.version, stored: stored, overwrite: overwrite)
      try txn.reading { try Self.checkWritable(try ContactCodec.container(of: stored.state), actor, book, in: $0) }
      var payload = Payload()
      payload.append(tag: 1, id: contact.id)
      try appender.append(RecordDraft(kind: .contactRemoved, principal: actor, payload: payload), in: &txn)
      try Self.forgetAwaited(stored, actor, book, &txn, &appender)
    }
  }

  /// The refusal of a limited session's change to a contact the person did not choose for it
  /// (recorded like any refusal).
  static func outsideScope(_ actor: Principal, _ operation: String) -> StoreError {
    guard case .client(let client) = actor else { return .contact(.invalidField(field: "scope", reason: "")) }
    return .access(.accessDenied(client: client, service: .contacts, status: .limited, operation: operation))
  }

  /// Brings a fetched contact up to date, keeping the fields the caller changed and has not saved;
  /// `false` (refetch) when it was removed or this session can no longer read contacts. See
  /// ``EventStore/refresh(_:)-(Event)``.
  public func refresh(_ contact: inout Contact) throws(StoreError) -> Bool {
    let id = contact.id
    let updated = try session.refreshed(
      contact, id, at: contact.version, .contactSaved, edits: .contact, versionOf: \.version,
      fetch: { () throws(StoreError) -> Contact? in try self.contact(withID: id) },
      decode: { (id, fields, header) throws(StoreError) -> Contact in
        try ContactCodec.decodeContact(
          id: id, version: header.position, modified: header.timestamp,
          try PayloadReader(Payload(bytes: fields.bytes(5) ?? [])))
      })
    guard let updated else { return false }
    contact = updated
    return true
  }
}

extension LocalEdits where Value == Contact {
  /// Every field a caller may set on a contact.
  static var contact: LocalEdits {
    LocalEdits([
      field(\.externalID), field(\.kind), field(\.namePrefix), field(\.givenName), field(\.middleName),
      field(\.familyName), field(\.nameSuffix), field(\.nickname), field(\.phoneticGivenName),
      field(\.phoneticMiddleName), field(\.phoneticFamilyName), field(\.organizationName), field(\.departmentName),
      field(\.jobTitle), field(\.emailAddresses), field(\.phoneNumbers), field(\.postalAddresses),
      field(\.urlAddresses), field(\.birthday), field(\.note), field(\.groupIDs), field(\.additionalProperties),
      field(\.clientProperties),
    ])
  }
}

extension LocalEdits where Value == ContactGroup {
  /// Every field a caller may set on a group.
  static var group: LocalEdits { LocalEdits([field(\.externalID), field(\.name), field(\.clientProperties)]) }
}
