internal import LMDB

extension ContactStore {
  /// What changed among the contacts (and groups) this session may use after `position` (RFC 6578's
  /// `sync-collection` on an address book, a position of the log being the sync token): the
  /// contacts and group cards added or changed, as they are now, and the names of those removed.
  /// With `position` `nil`, a first sync: every contact and group card, and the position to continue
  /// from (with `limit`, the oldest, up to the last one's version).
  ///
  /// An incremental answer reads the log after `position` in one snapshot (its cost grows with the
  /// records since, not with the book), names a removed contact or group by the name it had at its
  /// last save (kept in its entry), and is complete up to `ContactChanges.position`; with `limit`
  /// it holds at most that many (a single change naming more is taken whole) and stops before the
  /// record that would exceed it. A change of a contact may move it into or out of any group, and
  /// membership is the contacts' to hold, so it names every group too: a client finds the cards
  /// whose membership did not change under their entity tags (``GroupCard/contentVersion``) and
  /// fetches nothing. A session with limited access hears only of the contacts it may use, and of
  /// no group.
  ///
  /// - Throws: ``CalendarError/changesUnavailable(after:)`` for a position beyond the head, a
  ///   contact or group removed since whose last save was erased, or — for an app — a decision
  ///   about its access or a choice of its contacts recorded since (what it may see changed with
  ///   no change of the contacts to tell it: a contact taken back must go from the client, one
  ///   given must come): the client then syncs from the start.
  package func contactChanges(
    after position: LogPosition?, limit: Int? = nil, in container: ObjectID = ContactContainer.localID
  ) throws(StoreError) -> ContactChanges {
    guard let position else {
      let head = try store.head().position
      let cards = try addressObjects(in: container)
      var contacts = cards.compactMap { card -> Contact? in if case .contact(let c) = card { c } else { nil } }
      var groups = cards.compactMap { card -> GroupCard? in if case .group(let g) = card { g } else { nil } }
      guard let limit, contacts.count + groups.count > limit else {
        return ContactChanges(position: head, contacts: contacts, groups: groups, removed: [])
      }
      // The oldest `limit` of both, up to the last one's version.
      var versions = (contacts.map(\.version) + groups.map(\.group.version)).sorted()
      versions.removeLast(versions.count - limit)
      let last = versions.last!
      contacts = contacts.filter { $0.version <= last }.sorted { $0.version < $1.version }
      groups = groups.filter { $0.group.version <= last }
      return ContactChanges(position: last, contacts: contacts, groups: groups, removed: [], isTruncated: true)
    }
    let store = self.store
    let client = sessionClient
    let permissions = try permissions()
    return try readContacts("read the address book's changes") { txn, view in
      guard try view.container(container, in: txn) != nil else {
        throw StoreError.contact(.containerNotFound(container))
      }
      if let client, try permissions.accessChanged(client, after: position, in: txn) {
        throw StoreError.calendar(.changesUnavailable(after: position))
      }
      let groups = view.seesGroups ? try view.book.members(ofContainer: container, .group, in: txn) : []
      let changed = try ChangedNames(
        after: position, limit: limit, store: store, in: txn,
        items: { header, payload in
          switch header.kind {
          case .contactSaved, .contactRemoved:
            let id = try PayloadReader(bytes: payload).requiredObjectID(1)
            let mine = try Self.isIn(container, .contact, id, view.book, after: position, in: txn)
            return view.scope?.contains(id) ?? true && mine ? [id] + groups : []
          case .groupSaved, .groupRemoved:
            let id = try PayloadReader(bytes: payload).requiredObjectID(1)
            let mine = try Self.isIn(container, .group, id, view.book, after: position, in: txn)
            return view.seesGroups && mine ? [id] : []
          default:
            return []
          }
        },
        name: { id in
          try Self.addressObjectName(id, view.book, scope: view.scope, container: container, after: position, in: txn)
        })
      var changes = ContactChanges(
        position: changed.position, contacts: [], removed: [], isTruncated: changed.isTruncated)
      for name in changed.names {
        if let (id, _) = try Self.stored(named: name, view.book, scope: view.scope, container: container, in: txn),
          let contact = try view.contact(id, in: txn)
        {
          changes.contacts.append(try Self.shown(contact, view.book, scope: view.scope, in: txn))
        } else if view.seesGroups,
          let (id, stored) = try Self.stored(named: name, kind: .group, view.book, container: container, in: txn)
        {
          changes.groups.append(try Self.groupCard(id, stored, view.book, in: txn))
        } else {
          changes.removed.append(name)
        }
      }
      return changes
    }
  }

  /// Whether the contact or group `id` is of `container`: it never moves, so its state now (or,
  /// removed, at its last save) says; throws ``CalendarError/changesUnavailable(after:)`` when that
  /// is no longer known (its content erased).
  private static func isIn(
    _ container: ObjectID, _ kind: ContactObjectKind, _ id: ObjectID, _ book: ContactsProjection,
    after position: LogPosition, in txn: borrowing ReadTransaction
  ) throws -> Bool {
    guard let stored = try book.state(kind, id, in: txn),
      let state = stored.isLive ? stored.state : try book.lastState(stored, kind, id, in: txn)
    else { throw StoreError.calendar(.changesUnavailable(after: position)) }
    return try ContactCodec.container(of: state) == container
  }

  /// The name (``Contact/resourceName`` or ``ContactGroup/resourceName``, or else the `UID`) the
  /// contact or group `id` has now or, once removed, had at its last save, as a client that sees
  /// `scope` finds it there: a contact's alias (``alias(of:)``) when a contact it sees made before
  /// this one holds the name; throws ``CalendarError/changesUnavailable(after:)`` when that is no
  /// longer known (its content erased).
  private static func addressObjectName(
    _ id: ObjectID, _ book: ContactsProjection, scope: Set<ObjectID>?, container: ObjectID,
    after position: LogPosition, in txn: borrowing ReadTransaction
  ) throws -> String {
    let kind: ContactObjectKind = try book.state(.contact, id, in: txn) != nil ? .contact : .group
    guard let stored = try book.state(kind, id, in: txn),
      let state = stored.isLive ? stored.state : try book.lastState(stored, kind, id, in: txn),
      let uid = try state.string(1)
    else { throw StoreError.calendar(.changesUnavailable(after: position)) }
    let name = try state.string(28) ?? uid
    guard kind == .contact,
      let (holder, held) = try Self.stored(named: name, book, scope: scope, container: container, in: txn),
      holder != id
    else { return name }
    // Another holds the name: this one is at its alias if it came after that one.
    let after = Self.madeBefore((try Self.creation(of: held.state), holder), (try Self.creation(of: state), id))
    return after ? Self.alias(of: id) : name
  }
}
