internal import LMDB

/// What one session may see of the contacts book in one snapshot: every contact and group, or —
/// with limited access — the contacts in its scope and no groups.
struct ContactView {
  let book: ContactsProjection
  /// The contacts a limited session may use; `nil`: all.
  let scope: Set<ObjectID>?
  /// Where the chosen contacts a limited session is handed are noted, for the record of its read.
  let uses: ReadUses

  /// Whether the session sees groups (a limited session does not: their names and members would
  /// tell of contacts it may not see).
  var seesGroups: Bool { scope == nil }

  /// The live contact `id` as this session sees it, or `nil`: its removed groups (and, for a
  /// limited session, every group) left out.
  func contact(_ id: ObjectID, in txn: borrowing ReadTransaction) throws -> Contact? {
    if let scope, !scope.contains(id) { return nil }
    guard var contact = try EventStore.liveContact(id, book, in: txn) else { return nil }
    if scope != nil { uses.touch(id) }
    if !seesGroups { contact.groupIDs = [] }
    return contact
  }
}
