internal import LMDB

extension ContactStore {
  /// The cards of the account's address book `containerID` that the person or apps changed and
  /// that its server does not hold yet, in the order of their first change: what a sync sends
  /// (``OutboxProjection``). The person's only.
  package func outgoingCards(inContainer containerID: ObjectID) throws(StoreError) -> [OutgoingCard] {
    try session.requireOwner("sync accounts")
    let outbox = try session.store.projection(OutboxProjection.self)
    let book = try contactsBook()
    return try session.read(records: false) { txn, _, _ in
      try outbox.pending(inCalendar: containerID, in: txn).map { waiting in
        var card: AddressObject?
        var holder: (kind: OutgoingCard.Holder, id: ObjectID)?
        if let (id, stored) = try Self.stored(named: waiting.name, book, container: containerID, in: txn) {
          card = .contact(try ContactCodec.decodeContact(id: id, version: stored.version, modified: nil, stored.state))
          holder = (.contact, id)
        } else if let (id, stored) = try Self.stored(
          named: waiting.name, kind: .group, book, container: containerID, in: txn)
        {
          card = .group(try Self.groupCard(id, stored, book, in: txn))
          holder = (.group, id)
        }
        return OutgoingCard(
          name: waiting.name, baseEntityTag: waiting.base, carries: waiting.last, card: card, holder: holder)
      }
    }
  }

  /// Records that the server of the account's address book `containerID` now holds each of
  /// `deliveries` — the card as ``outgoingCards(inContainer:)`` gave it, with the `ETag` the
  /// server answered (`nil`: it holds nothing under the name, or answered without one) — in one
  /// transaction: a ``RecordKind/remoteDelivered`` record each, by the account. The person's only.
  package func recordCardDeliveries(
    _ deliveries: [(card: OutgoingCard, entityTag: String?)], inContainer containerID: ObjectID
  ) throws(StoreError) {
    try session.requireOwner("sync accounts")
    guard !deliveries.isEmpty else { return }
    let book = try contactsBook()
    try write(nil) { txn, appender, _ in
      guard let container = try book.container(containerID, in: txn), let account = container.accountID else {
        throw StoreError.contact(.containerNotFound(containerID))
      }
      for (card, entityTag) in deliveries {
        try Self.appendCardDelivered(
          card.name, entityTag: entityTag, carries: card.carries, holder: card.holder, container: containerID,
          .source(account.description), &txn, &appender)
      }
    }
  }

  /// The conflicts recorded in the account's address book `containerID`, oldest first. The
  /// person's only.
  public func remoteConflicts(inContainer containerID: ObjectID) throws(StoreError) -> [RemoteConflict] {
    try session.requireOwner("sync accounts")
    let outbox = try session.store.projection(OutboxProjection.self)
    return try session.read(records: false) { txn, _, _ in try outbox.conflicts(inCalendar: containerID, in: txn) }
  }

  /// Appends a ``RecordKind/remoteDelivered`` record by the account `source`: its server holds the
  /// card `name` of `containerID` with `entityTag`, as the store's change at `carries` left it
  /// (``EventStore``'s record, naming the card's contact or group).
  static func appendCardDelivered(
    _ name: String, entityTag: String?, carries: LogPosition, holder: (kind: OutgoingCard.Holder, id: ObjectID)?,
    container containerID: ObjectID, _ source: Principal, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws {
    let ids = holder.map { [$0.id] } ?? []
    try EventStore.appendDelivered(
      name, entityTag: entityTag, carries: carries, contacts: holder?.kind == .contact ? ids : [],
      groups: holder?.kind == .group ? ids : [], calendar: containerID, source, &txn, &appender)
  }
}
