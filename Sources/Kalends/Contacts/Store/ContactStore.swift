internal import LMDB

/// The contacts of the store with the semantics of Contacts (`CNContactStore`): contacts, groups,
/// containers and vCards, every change appended to the log as one fact and applied to the
/// projections in the same transaction.
///
/// A contact store is a view of one session (``EventStore/contactStore``): it writes as that
/// session's principal, and an app's session is held to the app's access to ``Service/contacts``
/// (full, limited to the contacts the person chose, or none) exactly as its event store is held to
/// its access to calendars — checked inside each transaction against the stored state, every
/// refusal recorded. Objects carry the version they were fetched at: saving a stale copy fails
/// with ``ContactError/changedSinceFetched(_:fetched:current:)`` unless `overwrite` is set.
public struct ContactStore: Sendable {
  /// The session this view reads and writes as.
  let session: EventStore

  init(session: EventStore) {
    self.session = session
  }

  /// The person's contact store over `store`, with full rights: changes are recorded as the
  /// person's. An app obtains its view from its own session (``EventStore/session(for:)``).
  public init(store: Store) {
    self.init(session: EventStore(store: store))
  }

  /// Who the changes are recorded as made by.
  public var actor: Principal { session.actor }

  // MARK: Plumbing shared with the session

  var store: Store { session.store }
  var sessionClient: String? { session.sessionClient }
  var sessionStart: LogPosition { session.sessionStart }
  var identification: CallerEvidence? { session.identification }
  var identifiedCaller: (principal: Principal, evidence: CallerEvidence)? { session.identifiedCaller }

  func contactsBook() throws(StoreError) -> ContactsProjection { try session.contactsBook() }
  func permissions() throws(StoreError) -> PermissionProjection { try session.permissions() }

  func write<R>(
    _ need: AccessNeed?, _ body: (inout WriteTransaction, inout LogAppender, ObjectProjection) throws -> R
  ) throws(StoreError) -> R {
    try session.write(need, body)
  }

  func readItems<R>(
    _ service: Service, _ operation: String, hidden: R, records: Bool = true,
    _ body: (borrowing ReadTransaction, ObjectProjection, ReadUses) throws -> R
  ) throws(StoreError) -> R {
    try session.readItems(service, operation, hidden: hidden, records: records, body)
  }
}

extension EventStore {
  /// This session's contacts: the same principal, held to its access to ``Service/contacts``.
  public var contactStore: ContactStore { ContactStore(session: self) }
}
