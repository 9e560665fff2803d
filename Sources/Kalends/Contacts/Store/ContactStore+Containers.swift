internal import LMDB

/// The containers of contacts (address books, ``ContactContainer``): listed, made, renamed and
/// removed, each a collection a CardDAV client syncs on its own.
extension ContactStore {
  /// The containers this session sees: the local one first, then by title and identifier. Any
  /// access to contacts reads them (a limited session: those of ``ContactContainer``'s rule).
  public func contactContainers() throws(StoreError) -> [ContactContainer] {
    try readContacts("read the address books") { txn, view in
      let all = try view.book.containerIDs(in: txn).compactMap { try view.container($0, in: txn) }
      return Self.inTitleOrder(all)
    }
  }

  /// The container `id`, or `nil` when there is none, it was removed, or this session does not see
  /// it.
  public func contactContainer(withID id: ObjectID) throws(StoreError) -> ContactContainer? {
    try readContacts("read the address books") { txn, view in try view.container(id, in: txn) }
  }

  /// The container a CardDAV client finds at `/dav/addressbooks/NAME/`: the local one for
  /// ``ContactContainer/localResourceName``, the one with that identifier, else the one made under
  /// that name (``ContactContainer/resourceName``) — among those this session sees; `nil` when none.
  package func contactContainer(named name: String) throws(StoreError) -> ContactContainer? {
    try readContacts("read the address books") { txn, view in
      if name == ContactContainer.localResourceName { return try view.container(ContactContainer.localID, in: txn) }
      if let id = ObjectID(name) { return try view.container(id, in: txn) }
      return try Self.container(named: name, view.book, in: txn) { try view.sees($0, in: txn) }
    }
  }

  /// The live container made under `name` among those `visible` admits: the earliest made when
  /// several are (only the store's own checks keep names unique, so a replayed log may hold two),
  /// in the order ``madeBefore(_:_:)`` gives the holders of a card's name.
  static func container(
    named name: String, _ book: ContactsProjection, in txn: borrowing ReadTransaction,
    visible: (ContactContainer) throws -> Bool = { _ in true }
  ) throws -> ContactContainer? {
    var found: ContactContainer?
    for id in try book.containerIDs(in: txn) where !id.isLocalContainer {
      guard let container = try book.container(id, in: txn), container.resourceName == name, try visible(container)
      else { continue }
      let made = { (c: ContactContainer) in (created: c.creationDate?.rawValue ?? .min, id: c.id) }
      if let first = found, Self.madeBefore(made(first), made(container)) { continue }
      found = container
    }
    return found
  }

  /// `containers` the local one first, then by folded title and identifier.
  static func inTitleOrder(_ containers: [ContactContainer]) -> [ContactContainer] {
    containers.sorted { a, b in
      if a.isLocal != b.isLocal { return a.isLocal }
      let (x, y) = (ContactSearchKey.folded(a.title), ContactSearchKey.folded(b.title))
      return x != y ? x < y : a.id.bytes.lexicographicallyPrecedes(b.id.bytes)
    }
  }

  /// Creates a container or changes its title and dead properties, and returns it as saved. A new
  /// one records who made it and when; its ``ContactContainer/resourceName`` (by default none: it
  /// is found by its identifier) is kept by every save after, as are the local container's. The
  /// session needs full access to contacts (an app with limited access makes none, as an app
  /// given chosen calendars makes no calendar).
  ///
  /// - Throws: ``ContactError/containerNameInUse(_:)`` for a name another container holds (or an
  ///   identifier's form, or the local container's name); ``ContactError/invalidField(field:reason:)``
  ///   for an empty or bad title or name, or dead properties beyond the bounds;
  ///   ``ContactError/changedSinceFetched(_:fetched:current:)`` when the stored one is at another
  ///   version than `container` was fetched at (unless `overwrite`); ``ContactError/containerNotFound(_:)``
  ///   for one that was removed.
  @discardableResult
  public func save(_ container: ContactContainer, overwrite: Bool = false) throws(StoreError) -> ContactContainer {
    try Self.checkContactText(container.title, "the address book's title")
    if container.title.isEmpty { throw .contact(.invalidField(field: "the address book's title", reason: "is empty")) }
    try EventStore.checkClientProperties(container.clientProperties)
    let actor = self.actor
    let book = try contactsBook()
    return try write(.change(.contacts, "save an address book")) { txn, appender, _ in
      var saved = container
      let removed = try txn.reading { txn in
        try txn.withValue(forKey: ContactsProjection.containerKey(container.id), in: book.objects) {
          try !StoredContact(entry: $0).isLive
        } ?? false
      }
      if removed { throw StoreError.contact(.containerNotFound(container.id)) }
      if let stored = try book.container(container.id, in: txn), stored.version != .none || container.isLocal {
        if !overwrite && stored.version != container.version {
          throw StoreError.contact(
            .changedSinceFetched(container.id, fetched: container.version, current: stored.version))
        }
        try txn.reading { try Self.checkChangeable(container.id, actor, book, in: $0) }
        saved.resourceName = stored.resourceName
        saved.creator = stored.creator
        (saved.accountID, saved.remote) = (stored.accountID, stored.remote)
        saved.allowsContentModifications = stored.allowsContentModifications
        saved.creationDate = stored.creationDate ?? (container.isLocal ? appender.timestamp : nil)
        if saved.title == stored.title && saved.clientProperties == stored.clientProperties && stored.version != .none {
          return stored
        }
      } else {
        if let name = container.resourceName {
          try Self.checkContactText(name, "the address book's name")
          let taken = try txn.reading { try Self.container(named: name, book, in: $0) } != nil
          if name.isEmpty || name.contains("/") || name == ContactContainer.localResourceName
            || ObjectID(name) != nil || taken
          {
            throw StoreError.contact(.containerNameInUse(name))
          }
        }
        saved.creator = if case .client(let client) = actor { client } else { nil }
        saved.creationDate = appender.timestamp
        // An account's address book is made by its sync, never by a save.
        (saved.accountID, saved.remote, saved.allowsContentModifications) = (nil, nil, true)
      }
      return try Self.appendSaved(saved, actor, &txn, &appender)
    }
  }

  /// Sets and removes a container's dead properties (a `nil` value removes the name) — a CardDAV
  /// `PROPPATCH` of the address book — and its title when `title` is given, as one save; nothing
  /// is written when they stay as they are. Returns the container as stored.
  @discardableResult
  public func updateContainer(
    _ id: ObjectID, title: String? = nil, properties changes: [String: String?]
  ) throws(StoreError) -> ContactContainer {
    guard var container = try contactContainer(withID: id) else { throw .contact(.containerNotFound(id)) }
    container.clientProperties = EventStore.applying(changes, to: container.clientProperties)
    if let title { container.title = title }
    return try save(container)
  }

  /// Removes a container with every contact and group in it, in one transaction: a
  /// `contactRemoved` or `groupRemoved` for each, then its `addressBookRemoved`. The session needs
  /// full access to contacts. An account's address book is removed on its server too, by the
  /// account's next sync (`DELETE` of its collection), as EventKit does with a CalDAV calendar.
  ///
  /// - Throws: ``ContactError/localContainerKept`` for the local container;
  ///   ``ContactError/containerReadOnly(_:)`` for an account's book whose server lets the user
  ///   change nothing in it;
  ///   ``ContactError/containerNotFound(_:)`` for one that does not exist;
  ///   ``ContactError/changedSinceFetched(_:fetched:current:)`` when it changed since `container`
  ///   was fetched (unless `overwrite`).
  public func remove(_ container: ContactContainer, overwrite: Bool = false) throws(StoreError) {
    if container.isLocal { throw .contact(.localContainerKept) }
    let actor = self.actor
    let book = try contactsBook()
    try write(.change(.contacts, "remove an address book")) { txn, appender, _ in
      guard let stored = try book.container(container.id, in: txn) else {
        throw StoreError.contact(.containerNotFound(container.id))
      }
      if !overwrite && stored.version != container.version {
        throw StoreError.contact(
          .changedSinceFetched(container.id, fetched: container.version, current: stored.version))
      }
      // An account's book removed here is removed on its server by the next sync (the outbox),
      // unless the server lets the user change nothing in it.
      try txn.reading { try Self.checkWritable(container.id, actor, book, in: $0) }
      try Self.appendRemoved(stored, actor, book, &txn, &appender)
    }
  }

  /// Appends the removal of every contact and group of `container`, then of `container`.
  static func appendRemoved(
    _ container: ContactContainer, _ principal: Principal, _ book: ContactsProjection, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws {
    for kind in [ContactObjectKind.contact, .group] {
      for id in try txn.reading({ try book.members(ofContainer: container.id, kind, in: $0) }) {
        var payload = Payload()
        payload.append(tag: 1, id: id)
        try appender.append(RecordDraft(kind: kind.removeKind, principal: principal, payload: payload), in: &txn)
      }
    }
    var payload = Payload()
    payload.append(tag: 1, id: container.id)
    try appender.append(RecordDraft(kind: .addressBookRemoved, principal: principal, payload: payload), in: &txn)
  }

  /// Appends an `addressBookSaved` of `container` by `principal`; returns it as saved.
  static func appendSaved(
    _ container: ContactContainer, _ principal: Principal, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> ContactContainer {
    var payload = Payload()
    payload.append(tag: 1, id: container.id)
    payload.append(tag: 5, message: ContactCodec.encode(container))
    let header = try appender.append(
      RecordDraft(kind: .addressBookSaved, principal: principal, payload: payload), in: &txn)
    var saved = container
    saved.version = header.position
    return saved
  }
}
