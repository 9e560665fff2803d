internal import LMDB

extension ContactStore {
  /// The contact whose vCard `UID` is `uid` (compared bare of `urn:uuid:`), from the index of
  /// external identifiers; `nil` when there is none or this session may not use it (limited access:
  /// not among the contacts it was given or made).
  package func contact(uid: String) throws(StoreError) -> Contact? {
    try readContacts("read contacts") { txn, view in
      guard let (id, _) = try Self.stored(.contactExternalID, uid, .contact, view.book, in: txn) else { return nil }
      return try view.contact(id, in: txn)
    }
  }

  /// The contact a CardDAV client finds at `name` (`/dav/addressbooks/contacts/NAME.vcf`): the one
  /// stored under that name (``Contact/resourceName``), else the one whose `UID` it is and that has
  /// no name of its own; `nil` when there is none, or this session may not use it.
  package func contact(
    named name: String, in container: ObjectID = ContactContainer.localID
  ) throws(StoreError) -> Contact? {
    try readContacts("read contacts") { txn, view in
      guard try view.container(container, in: txn) != nil,
        let (id, _) = try Self.stored(named: name, view.book, scope: view.scope, container: container, in: txn)
      else { return nil }
      return try view.contact(id, in: txn).map { try Self.shown($0, view.book, scope: view.scope, in: txn) }
    }
  }

  /// Stores `contact` under `name` (by default its `UID`) — as a CardDAV `PUT` does — in one
  /// transaction: it replaces the fields of the contact this session may use at that name
  /// (`contact(named:in:)`; keeping its identifier and its groups, which a vCard from a DAV client
  /// does not carry), or creates one. A name other than the `UID` is kept with the contact
  /// (``Contact/resourceName``); a `UID` another contact holds under another name is refused
  /// (``CalendarError/uidInUse(uid:name:)``). A card equal to what is stored writes nothing.
  /// `condition` is checked against the stored contact in the same transaction (``ContactError``'s
  /// conflict when it fails: ``StoreError/contact(_:)`` with
  /// ``ContactError/changedSinceFetched(_:fetched:current:)``, or
  /// ``CalendarError/objectConditionFailed(_:)``).
  ///
  /// Returns the contact as stored, and whether it was new.
  @discardableResult
  package func putContact(
    _ contact: Contact, named name: String? = nil, in container: ObjectID = ContactContainer.localID,
    condition: ObjectCondition = .none
  ) throws(StoreError) -> (contact: Contact, created: Bool) {
    try Self.check(contact)
    let name = name ?? contact.externalID
    guard !name.isEmpty else { throw .calendar(.invalidCalendarObject("the resource has no name")) }
    try EventStore.checkText(name, field: "the resource name")
    let actor = self.actor
    let book = try contactsBook()
    return try write(.changeChosen(.contacts, "store a contact")) { txn, appender, _ in
      let scope = try txn.reading { try contactScope(book, in: $0) }
      return try Self.putContact(
        contact, named: name, in: container, condition: condition, scope: scope, actor, book, &txn, &appender)
    }
  }

  /// ``putContact(_:named:in:condition:)`` inside a write, for a session that sees `scope`; an
  /// account's sync gives the server's `entityTag` of the card, kept with the record it writes.
  static func putContact(
    _ contact: Contact, named name: String, in container: ObjectID, condition: ObjectCondition,
    scope: Set<ObjectID>?, entityTag: String? = nil, _ actor: Principal, _ book: ContactsProjection,
    _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> (contact: Contact, created: Bool) {
    var current: Contact?
    try Self.checkContainer(container, scope: scope, actor, book, in: &txn)
    if let (id, stored) = try txn.reading({
      try Self.stored(named: name, book, scope: scope, container: container, in: $0)
    }) {
      current = try ContactCodec.decodeContact(id: id, version: stored.version, modified: nil, stored.state)
    }
    guard condition.holds(for: current?.version) else {
      throw StoreError.calendar(.objectConditionFailed(name))
    }
    // A session with limited access sees no group, so no group's name is held for it.
    if current == nil, scope == nil,
      try txn.reading({ try Self.stored(named: name, kind: .group, book, container: container, in: $0) }) != nil
    {
      throw StoreError.contact(.nameHeldByOtherKind(name: name, holder: "a group"))
    }
    // A `UID` is held only by what the session sees: a limited session's card may share one
    // with a contact it was not given, which it is never told of.
    for kind in scope == nil ? [ContactObjectKind.contact, .group] : [.contact] {
      let field: ContactSearchKey.Field = kind == .contact ? .contactExternalID : .groupExternalID
      if let (id, stored) = try Self.stored(
        field, contact.externalID, kind, book, scope: scope, container: container, &txn),
        id != current?.id
      {
        let holder = try stored.state.string(28) ?? stored.state.string(1) ?? contact.externalID
        throw StoreError.calendar(.uidInUse(uid: contact.externalID, name: holder))
      }
    }
    var saved = contact
    saved.containerID = container
    saved.resourceName = name == contact.externalID ? nil : name
    // Found at its alias: the contact keeps the name it has.
    if let current, name == Self.alias(of: current.id), current.resourceName != name {
      saved.resourceName = current.resourceName
    }
    if let current {
      saved.id = current.id
      saved.version = current.version
      // The card's dead properties outlive a new text (RFC 4918 §9.7.1).
      saved.clientProperties = current.clientProperties
      saved.groupIDs = try current.groupIDs.filter { try book.isLive(.group, $0, in: txn) }
      var stored = current
      stored.groupIDs = saved.groupIDs
      stored.creationDate = nil
      if Self.sameContent(stored, saved) { return (current, false) }
    } else {
      saved.groupIDs = []
    }
    let result = try Self.saveContact(
      saved, overwrite: true, scope: scope, entityTag: entityTag, actor, book, &txn, &appender)
    return (result, current == nil)
  }

  /// Removes the contact a CardDAV client finds at `name` (`contact(named:in:)`) when `condition`
  /// holds for it, in one transaction; a missing one fails the condition
  /// `ObjectCondition.present(matching:)` and is otherwise ``CalendarError/objectConditionFailed(_:)``
  /// too: there was nothing to remove.
  package func removeContact(
    named name: String, in container: ObjectID = ContactContainer.localID, condition: ObjectCondition = .none
  ) throws(StoreError) {
    let actor = self.actor
    let book = try contactsBook()
    try write(.changeChosen(.contacts, "remove a contact")) { txn, appender, _ in
      let scope = try txn.reading { try contactScope(book, in: $0) }
      let found = try txn.reading { try Self.stored(named: name, book, scope: scope, container: container, in: $0) }
      guard let (id, stored) = found, condition.holds(for: stored.version) else {
        throw StoreError.calendar(.objectConditionFailed(name))
      }
      try txn.reading { try Self.checkWritable(try ContactCodec.container(of: stored.state), actor, book, in: $0) }
      var payload = Payload()
      payload.append(tag: 1, id: id)
      try appender.append(RecordDraft(kind: .contactRemoved, principal: actor, payload: payload), in: &txn)
      try Self.forgetAwaited(stored, actor, book, &txn, &appender)
    }
  }

  /// The live contact (or, with `kind` `.group`, group) a CardDAV client that sees `scope` (`nil`:
  /// every one) finds at `name`: among those it sees, the one stored under that name, else the one
  /// whose `UID` it is (exactly) and that has no name of its own — the earliest made when several
  /// hold it; else, for a name ``alias(of:)`` made, the contact of that identifier.
  ///
  /// Names are resolved among what the client sees, never across it: a contact it may not use
  /// holds no name for it, so an app given some contacts can store a card at any name without
  /// learning whether a hidden contact holds it, and a client that sees both keeps finding the one
  /// that held the name first — a name never comes to resolve to a card stored after it.
  static func stored(
    named name: String, kind: ContactObjectKind = .contact, _ book: ContactsProjection,
    scope: Set<ObjectID>? = nil, container: ObjectID? = nil, in txn: borrowing ReadTransaction
  ) throws -> (ObjectID, StoredContact)? {
    let fields: [ContactSearchKey.Field] =
      kind == .contact ? [.contactResourceName, .contactExternalID] : [.groupResourceName, .groupExternalID]
    for (index, field) in fields.enumerated() {
      let keys = try txn.withCursor(on: book.search) {
        try $0.keys(withPrefix: ContactSearchKey.externalKey(field, name, nil))
      }
      var earliest: (created: Int64, id: ObjectID, stored: StoredContact)?
      for key in keys {
        let id = ObjectID(bytes: key[(key.count - 16)...])!
        if let scope, !scope.contains(id) { continue }
        guard let stored = try book.state(kind, id, in: txn), stored.isLive,
          try container.map({ try ContactCodec.container(of: stored.state) == $0 }) ?? true
        else { continue }
        let found =
          index == 0
          ? try stored.state.string(28) == name
          : try stored.state.string(1) == name && stored.state.string(28) == nil
        guard found else { continue }
        let created = try Self.creation(of: stored.state)
        if let first = earliest, Self.madeBefore((first.created, first.id), (created, id)) { continue }
        earliest = (created, id, stored)
      }
      if let earliest { return (earliest.id, earliest.stored) }
    }
    guard kind == .contact, name.hasPrefix(Self.aliasPrefix),
      let id = ObjectID(String(name.dropFirst(Self.aliasPrefix.count))),
      scope?.contains(id) ?? true, let stored = try book.state(.contact, id, in: txn), stored.isLive,
      try container.map({ try ContactCodec.container(of: stored.state) == $0 }) ?? true
    else { return nil }
    return (id, stored)
  }

  /// When a contact was made, from its state (`created`), for ordering the holders of one name;
  /// the earliest possible when it was not kept.
  static func creation(of state: PayloadReader) throws -> Int64 { try state.signed(27) ?? .min }

  /// Whether the contact made at `a` (its creation and identifier) came before the one made at
  /// `b`: by creation, then by identifier — one order of a name's holders for every reader.
  static func madeBefore(_ a: (created: Int64, id: ObjectID), _ b: (created: Int64, id: ObjectID)) -> Bool {
    a.created < b.created || (a.created == b.created && a.id.bytes.lexicographicallyPrecedes(b.id.bytes))
  }

  /// The start of a name ``alias(of:)`` makes.
  static let aliasPrefix = "kalends-"

  /// The name a client is shown a contact at when the contact's own name resolves, for that client,
  /// to another contact (one made earlier that holds the same name): `kalends-` and its identifier.
  static func alias(of id: ObjectID) -> String { aliasPrefix + id.description }

  /// `contact` as a client that sees `scope` finds it: at its own name when that name resolves to
  /// it (``stored(named:kind:_:scope:container:in:)``), else at its ``alias(of:)`` — two contacts the client
  /// sees are never at one name.
  static func shown(
    _ contact: Contact, _ book: ContactsProjection, scope: Set<ObjectID>?, in txn: borrowing ReadTransaction
  ) throws -> Contact {
    let name = contact.resourceName ?? contact.externalID
    guard let (holder, _) = try stored(named: name, book, scope: scope, container: contact.containerID, in: txn),
      holder != contact.id
    else {
      return contact
    }
    var shown = contact
    shown.resourceName = alias(of: contact.id)
    return shown
  }

  /// What stands for the contacts (and groups) this session may use, for an address book's
  /// collection tag: the latest version among them and how many they are (see
  /// `calendarStamp(inCalendar:)`), read from the book's entries without decoding a card. A
  /// membership change is a contact's save, so it moves the version too.
  public func contactsStamp(
    in container: ObjectID = ContactContainer.localID
  ) throws(StoreError) -> (version: LogPosition, items: Int) {
    let stamp = try contactsStamp(in: container, recordingUse: true)
    return (stamp.version, stamp.items)
  }

  /// ``contactsStamp(in:)`` with the address book's own version (its properties: its title)
  /// beside it, counted as the app's read only with `recordingUse` (not when the store's push
  /// delivery looks for changes on the app's behalf, which counts what it tells).
  package func contactsStamp(
    in container: ObjectID, recordingUse: Bool
  ) throws(StoreError) -> (properties: LogPosition, version: LogPosition, items: Int) {
    try readContacts("read contacts", records: recordingUse) { txn, view in
      guard let book = try view.container(container, in: txn) else {
        throw StoreError.contact(.containerNotFound(container))
      }
      let latest = try view.book.latest(.contact, only: view.scope, in: container, txn: txn)
      guard view.seesGroups else { return (book.version, latest.version, latest.count) }
      let groups = try view.book.latest(.group, only: nil, in: container, txn: txn)
      return (book.version, max(latest.version, groups.version), latest.count + groups.count)
    }
  }
}
