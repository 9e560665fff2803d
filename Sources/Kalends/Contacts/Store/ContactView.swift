internal import LMDB

/// What one session may see of the contacts book in one snapshot: every contact, group and
/// container, or — with limited access — the contacts in its scope, no groups, and the containers
/// ``sees(_:in:)`` admits.
struct ContactView {
  let book: ContactsProjection
  /// The contacts a limited session may use; `nil`: all.
  let scope: Set<ObjectID>?
  /// The app of a limited session (``Principal/client(_:)``), whose own containers it sees.
  let client: String?
  /// Where the chosen contacts a limited session is handed are noted, for the record of its read.
  let uses: ReadUses

  /// Whether the session sees groups (a limited session does not: their names and members would
  /// tell of contacts it may not see).
  var seesGroups: Bool { scope == nil }

  /// The live contact `id` as this session sees it, or `nil`: its removed groups (and, for a
  /// limited session, every group) left out.
  func contact(_ id: ObjectID, in txn: borrowing ReadTransaction) throws -> Contact? {
    if let scope, !scope.contains(id) { return nil }
    guard var contact = try ContactStore.liveContact(id, book, in: txn) else { return nil }
    if scope != nil { uses.touch(id) }
    if !seesGroups { contact.groupIDs = [] }
    return contact
  }

  /// The live container `id` when this session sees it; an app's copy does not say where an
  /// account's address book is on its server.
  func container(_ id: ObjectID, in txn: borrowing ReadTransaction) throws -> ContactContainer? {
    guard var container = try book.container(id, in: txn), try sees(container, in: txn) else { return nil }
    if client != nil { container.remote = nil }
    return container
  }

  /// Whether this session sees `container`: every one with full access; with limited access the
  /// local one, one holding a contact it may use, and one its app made. Asked of one container at a
  /// time, so that a limited session's reads of contacts cost nothing for containers they never
  /// name.
  func sees(_ container: ContactContainer, in txn: borrowing ReadTransaction) throws -> Bool {
    try Self.sees(container, scope: scope, client: client, book, in: txn)
  }

  /// ``sees(_:in:)`` for a session of `scope` and `client`, outside a view (a write).
  static func sees(
    _ container: ContactContainer, scope: Set<ObjectID>?, client: String?, _ book: ContactsProjection,
    in txn: borrowing ReadTransaction
  ) throws -> Bool {
    guard let scope, !container.isLocal, client == nil || container.creator != client else { return true }
    return try book.members(ofContainer: container.id, .contact, in: txn).contains(where: scope.contains)
  }
}
