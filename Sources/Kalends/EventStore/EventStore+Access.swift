internal import LMDB
import Synchronization

/// What a call needs of a client's access.
enum AccessNeed: Sendable {
  /// Read the service's data.
  case read(Service, String)
  /// Add new items (write-only access suffices for calendars).
  case add(Service, String)
  /// Change or remove existing items, or manage containers.
  case change(Service, String)

  var service: Service {
    switch self {
    case .read(let service, _), .add(let service, _), .change(let service, _): service
    }
  }

  var operation: String {
    switch self {
    case .read(_, let operation), .add(_, let operation), .change(_, let operation): operation
    }
  }

  /// Whether `status` allows it.
  func isAllowed(by status: AuthorizationStatus) -> Bool {
    switch (self, status) {
    case (_, .fullAccess): true
    case (.add(.calendars, _), .writeOnly): true
    default: false
    }
  }
}

extension EventStore {
  /// The client this session acts for; `nil` for the owner (and policies, the system).
  var sessionClient: String? {
    if case .client(let id) = actor { return id }
    return nil
  }

  /// The permission projection.
  func permissions() throws(StoreError) -> PermissionProjection {
    try store.projection(PermissionProjection.self)
  }

  /// Inside a write transaction: throws unless this session may do `need` (the owner may do anything).
  func checkAccess(_ need: AccessNeed, in txn: borrowing WriteTransaction) throws {
    guard let client = sessionClient else { return }
    let permissions = try permissions()
    let changed = try permissions.lastExternalChange(client, in: txn)
    if changed > sessionStart { throw StoreError.access(.sessionTerminated(client: client, at: changed)) }
    let status = try permissions.state(client, need.service, in: txn).status
    guard need.isAllowed(by: status) else {
      throw StoreError.access(
        .accessDenied(client: client, service: need.service, status: status, operation: need.operation))
    }
  }

  /// Whether this session sees the service's data: `true` with full access (and for the owner),
  /// `false` with write-only access (which sees nothing); throws, recording the refusal, otherwise.
  func canRead(_ service: Service, _ operation: String) throws(StoreError) -> Bool {
    guard let client = sessionClient, let status = try sessionStatus(service) else { return true }
    switch status {
    case .fullAccess: return true
    case .writeOnly where service == .calendars: return false
    default:
      return try recordingRefusal { () throws(StoreError) -> Bool in
        throw .access(.accessDenied(client: client, service: service, status: status, operation: operation))
      }
    }
  }

  /// This session's status for `service`; `nil` for the owner. Throws when the session was ended.
  func sessionStatus(_ service: Service) throws(StoreError) -> AuthorizationStatus? {
    guard let client = sessionClient else { return nil }
    let permissions = try permissions()
    let sessionStart = self.sessionStart
    return try StoreError.wrapping {
      try store.environment.read { txn in
        let changed = try permissions.lastExternalChange(client, in: txn)
        if changed > sessionStart { throw StoreError.access(.sessionTerminated(client: client, at: changed)) }
        return try permissions.state(client, service, in: txn).status
      }
    }
  }

  /// Throws ``AccessError/ownerOnly(_:)`` unless this facade acts for the person who owns the
  /// store: registering apps, deciding access, applying policies, reading the log, the audit or a
  /// backup are the person's. A client session's attempt is recorded first (`ownerActionRefused`);
  /// when it cannot be (a read-only store, a failed write), the error says so
  /// (``AccessError/refusalNotRecorded(_:reason:)``).
  public func requireOwner(_ what: String) throws(StoreError) {
    guard actor != .person else { return }
    let refused = AccessError.ownerOnly(what)
    guard let client = sessionClient else { throw .access(refused) }
    var payload = Payload()
    payload.append(tag: 1, string: client)
    payload.append(tag: 4, string: what)
    if let failure = record([RecordDraft(kind: .ownerActionRefused, principal: .client(client), payload: payload)]) {
      throw .access(.refusalNotRecorded(refused, reason: failure))
    }
    throw .access(refused)
  }

  /// Runs `body`; when it is refused for lack of access, records the refusal (coalesced) and rethrows.
  func recordingRefusal<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
    do {
      return try body()
    } catch .access(.accessDenied(let client, let service, let status, let operation)) {
      let denied = AccessError.accessDenied(client: client, service: service, status: status, operation: operation)
      if let failure = recordRefusal(client, service, status, operation) {
        throw .access(.refusalNotRecorded(denied, reason: failure))
      }
      throw .access(denied)
    }
  }

  /// Counts a refusal and records what is due; returns why it could not be recorded, if it could not.
  private func recordRefusal(
    _ client: String, _ service: Service, _ status: AuthorizationStatus, _ operation: String
  ) -> String? {
    let minute = Timestamp.now().rawValue.floorDividedWithRemainder(by: 60_000_000).quotient
    let due = refusals.withLock { $0.refuse(service, status: status, operation: operation, minute: minute) }
    return appendRefusals(client, due.map { (service, $0) })
  }

  /// Records the refusals still counted (called when the session ends, where nobody can be told
  /// that it failed).
  func flushRefusals() {
    guard let client = sessionClient else { return }
    let due = refusals.withLock { $0.drain() }
    _ = appendRefusals(client, due)
  }

  /// Appends `drafts` in one transaction; returns why it could not, if it could not.
  private func record(_ drafts: [RecordDraft]) -> String? {
    guard !store.options.readOnly else { return "the store is open read-only" }
    do {
      try store.append(contentsOf: drafts)
      return nil
    } catch {
      return error.description
    }
  }

  private func appendRefusals(_ client: String, _ due: [(Service, RefusalCounter.Pending)]) -> String? {
    guard !due.isEmpty else { return nil }
    let drafts = due.map { service, pending in
      var payload = Payload()
      payload.append(tag: 1, string: client)
      payload.append(tag: 2, unsigned: UInt64(service.rawValue))
      payload.append(tag: 3, unsigned: UInt64(pending.status.rawValue))
      payload.append(tag: 4, string: pending.operation)
      payload.append(tag: 5, unsigned: UInt64(pending.count))
      payload.append(tag: 6, signed: pending.minute)
      return RecordDraft(kind: .accessAttemptRefused, principal: .client(client), payload: payload)
    }
    return record(drafts)
  }
}
