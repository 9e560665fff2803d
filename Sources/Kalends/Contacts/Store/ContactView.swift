internal import LMDB

/// What one session may see of the contacts book in one snapshot: every contact, group and
/// container, or — with limited access — the contacts in its scope, no groups, and the containers
/// of ``ContactView/containers``.
struct ContactView {
  let book: ContactsProjection
  /// The contacts a limited session may use; `nil`: all.
  let scope: Set<ObjectID>?
  /// The containers a limited session sees: the local one, those holding a contact it may use and
  /// those it made; `nil`: all.
  let containers: Set<ObjectID>?
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

  /// The live container `id` when this session sees it.
  func container(_ id: ObjectID, in txn: borrowing ReadTransaction) throws -> ContactContainer? {
    if let containers, !containers.contains(id) { return nil }
    return try book.container(id, in: txn)
  }

  /// The containers a session with limited access (`scope`, as `client`) sees in the snapshot
  /// `txn`: the local one, those holding a contact of `scope`, and those `client` made.
  static func containers(
    scope: Set<ObjectID>, client: String?, _ book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws -> Set<ObjectID> {
    var seen: Set<ObjectID> = [ContactContainer.localID]
    for id in scope {
      if let container = try book.container(of: .contact, id, in: txn) { seen.insert(container) }
    }
    guard let client else { return seen }
    for id in try book.containerIDs(in: txn) where !seen.contains(id) {
      if try book.container(id, in: txn)?.creator == client { seen.insert(id) }
    }
    return seen
  }
}
