internal import LMDB

extension EventStore {
  /// What changed among the contacts this session may use after `position` (RFC 6578's
  /// `sync-collection` on an address book, a position of the log being the sync token): the
  /// contacts added or changed, as they are now, and the names of those removed. With `position`
  /// `nil`, a first sync: every contact, and the position to continue from (with `limit`, the
  /// oldest, up to the last one's version).
  ///
  /// An incremental answer reads the log after `position` in one snapshot (its cost grows with the
  /// records since, not with the book), names a removed contact by the name it had at its last save
  /// (kept in its entry), and is complete up to ``ContactChanges/position``; with `limit` it holds
  /// at most that many and stops before the record that would exceed it. A session with limited
  /// access hears only of the contacts it may use.
  ///
  /// - Throws: ``CalendarError/changesUnavailable(after:)`` for a position beyond the head, or a
  ///   contact removed since whose last save was erased: the client then syncs from the start.
  public func contactChanges(after position: LogPosition?, limit: Int? = nil) throws(StoreError) -> ContactChanges {
    guard let position else {
      let head = try store.head().position
      var contacts = try self.contacts()
      guard let limit, contacts.count > limit else {
        return ContactChanges(position: head, contacts: contacts, removed: [])
      }
      contacts.sort { $0.version < $1.version }
      contacts.removeLast(contacts.count - limit)
      return ContactChanges(position: contacts.last!.version, contacts: contacts, removed: [], isTruncated: true)
    }
    let store = self.store
    return try readContacts("read the address book's changes") { txn, view in
      let changed = try ChangedNames(
        after: position, limit: limit, store: store, in: txn,
        item: { header, payload in
          guard header.kind == .contactSaved || header.kind == .contactRemoved else { return nil }
          let id = try PayloadReader(bytes: payload).requiredObjectID(1)
          return view.scope?.contains(id) ?? true ? id : nil
        },
        name: { id in try Self.contactName(id, view.book, after: position, in: txn) })
      var changes = ContactChanges(
        position: changed.position, contacts: [], removed: [], isTruncated: changed.isTruncated)
      for name in changed.names {
        if let (id, _) = try Self.stored(named: name, view.book, in: txn), let contact = try view.contact(id, in: txn) {
          changes.contacts.append(contact)
        } else {
          changes.removed.append(name)
        }
      }
      return changes
    }
  }

  /// The name (``Contact/resourceName``, or else the `UID`) the contact `id` has now or, once
  /// removed, had at its last save; throws ``CalendarError/changesUnavailable(after:)`` when that
  /// is no longer known (its content erased).
  private static func contactName(
    _ id: ObjectID, _ book: ContactsProjection, after position: LogPosition, in txn: borrowing ReadTransaction
  ) throws -> String {
    guard let stored = try book.state(.contact, id, in: txn),
      let state = stored.isLive ? stored.state : try book.lastState(stored, id, in: txn),
      let uid = try state.string(1)
    else { throw StoreError.calendar(.changesUnavailable(after: position)) }
    return try state.string(28) ?? uid
  }
}
