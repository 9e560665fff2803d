internal import LMDB

/// What a call needs of a client's access.
enum AccessNeed: Sendable {
  /// Read the service's data.
  case read(Service, String)
  /// Add new items (write-only access suffices for calendars).
  case add(Service, String)
  /// Change or remove existing items, or manage containers.
  case change(Service, String)
  /// Create, change or remove items the app may use: all of them with full access, the chosen
  /// ones (and those it creates) with limited access, which the caller checks item by item.
  case changeChosen(Service, String)

  var service: Service {
    switch self {
    case .read(let service, _), .add(let service, _), .change(let service, _), .changeChosen(let service, _):
      service
    }
  }

  var operation: String {
    switch self {
    case .read(_, let operation), .add(_, let operation), .change(_, let operation),
      .changeChosen(_, let operation):
      operation
    }
  }

  /// Whether `status` allows it.
  func isAllowed(by status: AuthorizationStatus) -> Bool {
    switch (self, status) {
    case (_, .fullAccess): true
    case (.add(.calendars, _), .writeOnly): true
    case (.read(.contacts, _), .limited), (.changeChosen(.contacts, _), .limited): true
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
    try txn.reading { txn in
      guard let client = sessionClient, let status = try sessionStatus(need.service, in: txn) else { return }
      guard need.isAllowed(by: status) else {
        throw StoreError.access(
          .accessDenied(client: client, service: need.service, status: status, operation: need.operation))
      }
    }
  }

  /// Inside the snapshot `txn` that the data will be read from: whether this session sees the
  /// service's data — `true` with full access (and for the owner), `false` with write-only access
  /// to calendars (which sees nothing). Throws
  /// ``AccessError/accessDenied(client:service:status:operation:)`` otherwise (as a
  /// ``SnapshotRefusal``, which ``read(_:)`` records). Checking in the same snapshot as the read
  /// means that no revocation can fall between the check and the data. A client's read it allows
  /// is noted in `uses`, with the decision in force, to be recorded once the snapshot is closed.
  func sees(
    _ service: Service, _ operation: String, in txn: borrowing ReadTransaction, noting uses: ReadUses? = nil
  ) throws -> Bool {
    guard let client = sessionClient, let state = try sessionState(service, in: txn) else { return true }
    switch state.status {
    case .fullAccess:
      uses?.note(service, operation, state)
      return true
    // What a limited session sees is filtered item by item (``ContactStore/contactScope(_:in:)``).
    case .limited where service == .contacts:
      uses?.note(service, operation, state)
      return true
    case .writeOnly where service == .calendars: return false
    default:
      throw SnapshotRefusal(
        denied: .accessDenied(client: client, service: service, status: state.status, operation: operation))
    }
  }

  /// This session's status for `service` in the snapshot `txn`; `nil` for the owner. Throws
  /// ``AccessError/sessionTerminated(client:at:)`` when the session was ended in that snapshot.
  func sessionStatus(_ service: Service, in txn: borrowing ReadTransaction) throws -> AuthorizationStatus? {
    try sessionState(service, in: txn)?.status
  }

  /// This session's standing for `service` in the snapshot `txn` (its status and the decision it
  /// rests on); `nil` for the owner. Throws as ``sessionStatus(_:in:)``.
  func sessionState(_ service: Service, in txn: borrowing ReadTransaction) throws -> PermissionState? {
    guard let client = sessionClient else { return nil }
    let permissions = try permissions()
    try permissions.checkSession(client, start: sessionStart, token: identification?.tokenID, in: txn)
    return try permissions.state(client, service, in: txn)
  }

  /// For a session whose full access to calendars the person limited to chosen calendars, those
  /// calendars and the ones it created, in the snapshot `txn`; `nil` when it may use every
  /// calendar (or has no full access, which other checks refuse).
  func calendarScope(in txn: borrowing ReadTransaction) throws -> Set<ObjectID>? {
    guard let client = sessionClient else { return nil }
    return try permissions().calendarScope(client, in: txn)
  }

  /// Inside a write: throws access denied (recorded as any refusal) when this session is limited to
  /// chosen calendars and `calendar` is not one of them.
  func checkCalendarScope(_ calendar: ObjectID?, _ operation: String, in txn: borrowing WriteTransaction) throws {
    guard let calendar, let client = sessionClient else { return }
    guard let scope = try txn.reading({ try calendarScope(in: $0) }), !scope.contains(calendar) else { return }
    throw StoreError.access(
      .accessDenied(client: client, service: .calendars, status: .fullAccess, operation: operation))
  }

  /// Inside a write: what a session with write-only access to calendars may add events to — only
  /// the calendar behind the one virtual calendar it sees, as an EventKit app with write-only access
  /// holds no other. Read once per write; ``WriteOnlyTarget/check(_:)`` refuses each other calendar
  /// before any check of it, so that the session learns nothing of the calendars it cannot see.
  func writeOnlyTarget(_ objects: ObjectProjection, in txn: borrowing WriteTransaction) throws -> WriteOnlyTarget {
    try txn.reading { txn in
      guard let client = sessionClient, try sessionStatus(.calendars, in: txn) == .writeOnly else {
        return WriteOnlyTarget(client: nil, calendar: nil)
      }
      let calendar = Self.defaultCalendarForNewEvents(among: try Self.allCalendars(objects, in: txn))?.id
      return WriteOnlyTarget(client: client, calendar: calendar)
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
    if let failure = recordRefusal(client, nil, nil, what) {
      throw .access(.refusalNotRecorded(refused, reason: failure))
    }
    throw .access(refused)
  }

  /// Runs `body`; when it is refused for lack of access, or by a read-only calendar, records the
  /// refusal (coalesced) and rethrows.
  func recordingRefusal<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
    do {
      return try body()
    } catch .access(.accessDenied(let client, let service, let status, let operation)) {
      let denied = AccessError.accessDenied(client: client, service: service, status: status, operation: operation)
      if let failure = recordRefusal(client, service, status, operation) {
        throw .access(.refusalNotRecorded(denied, reason: failure))
      }
      throw .access(denied)
    } catch .calendar(.calendarReadOnly(let id)) {
      // EventKit's read-only error (a subscribed calendar, one made read-only): the app held
      // access, and its attempt is recorded like a refusal of it. A refusal that cannot be
      // recorded still refuses.
      if let client = sessionClient {
        _ = recordRefusal(client, .calendars, nil, "write into the read-only calendar \(id)")
      }
      throw .calendar(.calendarReadOnly(id))
    } catch .contact(.containerReadOnly(let id)) {
      if let client = sessionClient {
        _ = recordRefusal(client, .contacts, nil, "write into the account's address book \(id)")
      }
      throw .contact(.containerReadOnly(id))
    }
  }

  /// Counts the uses a read of this session noted (``UseTally``), once its snapshot is closed and
  /// before its answer leaves: what the log does not hold yet (the first read of an app, service,
  /// operation and minute, or new calendars or contacts) is appended in one durable write first.
  /// Throws ``AccessError/useNotRecorded(client:service:reason:)`` when that write fails: the
  /// answer is not given.
  func recordUses(_ uses: ReadUses) throws(StoreError) {
    guard let client = sessionClient else { return }
    try store.recordUses(uses.entries, of: client, identifiedBy: identification)
  }

  /// Counts a refusal durably (``RefusalTally``), in its own transaction, before the refused call
  /// returns; returns why it could not be counted, if it could not.
  func recordRefusal(
    _ client: String, _ service: Service?, _ status: AuthorizationStatus?, _ operation: String
  ) -> String? {
    guard !store.options.readOnly else { return "the store is open read-only" }
    let meta = store.meta
    do {
      try store.write(caller: identifiedCaller) { txn, appender in
        try RefusalTally.count(
          client, service, status, operation, minute: RefusalTally.minute(of: appender.timestamp),
          evidence: identification, meta: meta, &txn, &appender)
      }
      return nil
    } catch {
      return "\(error)"
    }
  }
}

/// A read refused by ``EventStore/sees(_:_:in:noting:)`` in a snapshot, on its way out of it to be recorded.
struct SnapshotRefusal: Error {
  let denied: AccessError
}

/// The calendar a write-only session may add events to (``EventStore/writeOnlyTarget(_:in:)``).
struct WriteOnlyTarget {
  /// The write-only session's client; `nil` when the session is not write-only (nothing is refused).
  let client: String?
  /// The calendar for new events.
  let calendar: ObjectID?

  /// Refuses an event added to `calendar` other than the calendar for new events.
  func check(_ calendar: ObjectID?) throws {
    guard let client, let calendar, calendar != self.calendar else { return }
    throw StoreError.access(
      .accessDenied(
        client: client, service: .calendars, status: .writeOnly,
        operation: "add an event to a calendar other than the one for new events"))
  }
}
