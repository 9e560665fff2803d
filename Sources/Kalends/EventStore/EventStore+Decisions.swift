internal import LMDB

/// How a decision about an app becomes a record: the change to its state, appended in the write
/// that checked it.
extension EventStore {

  /// Records the change `change` gives for a registered client's current state (nothing when it
  /// gives `nil`), then what `scope` appends (the person's choice of contacts or calendars) in the
  /// same transaction, and returns the status after the change.
  func decide(
    _ clientID: String, _ service: Service, _ change: (PermissionState) throws(StoreError) -> PermissionChange?,
    then scope: ((inout WriteTransaction, inout LogAppender) throws -> Void)? = nil
  ) throws(StoreError) -> AuthorizationStatus {
    try Self.checkClientID(clientID)
    let permissions = try permissions()
    return try StoreError.wrapping {
      try store.write { txn, appender in
        guard try permissions.client(clientID, in: txn) != nil else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        let current = try permissions.state(clientID, service, in: txn)
        let status =
          try change(current).map { try Self.appendDecision(clientID, service, $0, current, &txn, &appender) }
          ?? current.status
        try scope?(&txn, &appender)
        return status
      }
    }
  }

  /// Appends the `accessDecided` record of `change` to `current` (by the principal the change
  /// belongs to, with the status the rules give) and returns that status.
  @discardableResult
  static func appendDecision(
    _ clientID: String, _ service: Service, _ change: PermissionChange, _ current: PermissionState,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> AuthorizationStatus {
    let next: PermissionState
    do {
      next = try change.applied(to: current, service: service, at: appender.head.position.next)
    } catch {
      throw StoreError.access(.recordRefused(error.reason))
    }
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, unsigned: UInt64(service.rawValue))
    payload.append(tag: 3, unsigned: UInt64(next.status.rawValue))
    payload.append(tag: 4, unsigned: UInt64(current.status.rawValue))
    payload.append(tag: 5, unsigned: UInt64(change.reason.rawValue))
    if case .lift = change { payload.append(tag: 6, bool: true) }
    try appender.append(RecordDraft(kind: .accessDecided, principal: change.principal, payload: payload), in: &txn)
    return next.status
  }
}

extension AuthorizationStatus {
  /// `self`, or — when the request lacked its usage description — the error saying so (the denial
  /// is recorded first).
  func throwingMissingDescription(
    client: String, usage: Client.Usage, when missing: Bool
  ) throws(StoreError) -> AuthorizationStatus {
    if missing { throw .access(.missingUsageDescription(client: client, usage: usage.description)) }
    return self
  }
}
