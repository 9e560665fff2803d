internal import LMDB

/// Replays the privacy history of a store: the timeline of registrations, requests, decisions and
/// refusals, the status of every client at any instant, and who could use a service then. It only
/// reads (one snapshot per call), so it is safe while another process writes.
public struct PrivacyAudit: Sendable {
  /// The store audited.
  public let store: Store

  /// An audit of `store`.
  public init(store: Store) { self.store = store }

  /// The privacy records, oldest first, filtered by client, service and time (`since` inclusive,
  /// `until` exclusive). With a client, the permission projection's index finds its records without
  /// scanning the log.
  public func history(
    client: String? = nil, service: Service? = nil, since: Timestamp? = nil, until: Timestamp? = nil
  ) throws(StoreError) -> [AuditEntry] {
    let permissions = try store.projection(PermissionProjection.self)
    return try StoreError.wrapping {
      try store.environment.read { txn in
        var entries: [AuditEntry] = []
        func keep(_ value: RawSpan) throws {
          var principals = PrincipalCache()
          let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
          guard Self.privacyKinds.contains(decoded.header.kind) else { return }
          let identification = try decoded.context.map { range throws(StoreError) in
            try CallerEvidence(context: value.extracting(range))
          }
          let entry = try AuditEntry(
            decoded.header, try PayloadReader(bytes: value.extracting(decoded.payload)), identification: identification)
          if let client, entry.client != client { return }
          if let service, entry.service != service { return }
          if let since, entry.timestamp < since { return }
          if let until, entry.timestamp >= until { return }
          entries.append(entry)
        }
        if let client {
          let prefix = Array(client.utf8) + [0]
          let keys = try txn.withCursor(on: permissions.history) { try $0.keys(withPrefix: prefix) }
          for key in keys where key.count == prefix.count + 8 {
            let position = RecordCodec.readBigEndian(key[prefix.count...])
            _ = try txn.withValue(forKey: BigEndianKey(position), in: store.log) { try keep($0) }
          }
        } else {
          try txn.withCursor(on: store.log) { cursor in
            guard try cursor.first() else { return }
            _ = try cursor.scanForward { _, value in
              try keep(value)
              return .continue
            }
          }
        }
        return entries
      }
    }
  }

  /// The refused calls counted but not yet in the log (later refusals of a minute, appended by the
  /// first write after it), by app, service and minute. ``history(client:service:since:until:)``
  /// and these together count every refused call exactly.
  public func pendingRefusals(client: String? = nil) throws(StoreError) -> [PendingRefusal] {
    let meta = store.meta
    return try StoreError.wrapping {
      try store.environment.read { txn in try RefusalTally.pending(in: txn, meta: meta) }
    }
    .filter { client == nil || $0.client == client }
  }

  /// The status of every client registered by `instant`, for every service, at `instant`, with
  /// the decision it rests on; by client, then service. Without an instant: at the head of the log,
  /// every record counted, whatever the clocks of its writers said ("now" in an audit is the head:
  /// a decision stamped ahead of this machine's clock is in force, so it is listed).
  public func state(at instant: Timestamp? = nil) throws(StoreError) -> [AccessState] {
    let instant = instant ?? Timestamp(rawValue: .max)
    let permissions = try store.projection(PermissionProjection.self)
    return try StoreError.wrapping {
      try store.environment.read { txn in
        var states: [AccessState] = []
        for client in try permissions.allClients(in: txn) {
          guard let registered = try firstRecordTime(of: client.id, permissions, txn), registered <= instant else {
            continue
          }
          for service in Service.allCases {
            states.append(try state(of: client.id, service, at: instant, permissions, txn))
          }
        }
        return states
      }
    }
  }

  /// The clients that could use `service` at `instant` (without one: at the head of the log, as
  /// ``state(at:)``): full access reads and writes, write-only adds.
  public func whoCan(_ service: Service, at instant: Timestamp? = nil) throws(StoreError) -> [AccessState] {
    try state(at: instant).filter { $0.service == service && ($0.status == .fullAccess || $0.status == .writeOnly) }
  }

  // MARK: Plumbing

  static let privacyKinds: Set<RecordKind> = PermissionProjection.kinds

  private func firstRecordTime(
    of client: String, _ permissions: PermissionProjection, _ txn: borrowing ReadTransaction
  ) throws -> Timestamp? {
    let prefix = Array(client.utf8) + [0]
    var position: UInt64?
    try txn.withCursor(on: permissions.history) { cursor in
      guard try cursor.seek(atLeast: prefix) else { return }
      let key = try cursor.currentKey()
      guard key.count == prefix.count + 8, key.starts(with: prefix) else { return }
      position = RecordCodec.readBigEndian(key[prefix.count...])
    }
    guard let position else { return nil }
    return try txn.withValue(forKey: BigEndianKey(position), in: store.log) {
      try RecordCodec.decodeHeader($0).0.timestamp
    }
  }

  private func state(
    of client: String, _ service: Service, at instant: Timestamp, _ permissions: PermissionProjection,
    _ txn: borrowing ReadTransaction
  ) throws -> AccessState {
    let prefix = Array(client.utf8) + [0, service.rawValue]
    var seek = prefix
    RangeKey.append(instant.rawValue, to: &seek)
    seek += [UInt8](repeating: 0xFF, count: 8)
    var found: AccessState?
    try txn.withCursor(on: permissions.timeline) { cursor in
      guard try cursor.seek(atMost: seek) else { return }
      let key = try cursor.currentKey()
      guard key.count == prefix.count + 16, key.starts(with: prefix) else { return }
      let value = try cursor.currentValue()
      let position = RecordCodec.readBigEndian(key[(prefix.count + 8)...])
      found = AccessState(
        client: client, service: service, status: AuthorizationStatus(rawValue: value[0]) ?? .notDetermined,
        decision: LogPosition(position), reason: DecisionReason(rawValue: value[1]))
    }
    return found ?? AccessState(client: client, service: service, status: .notDetermined, decision: nil, reason: nil)
  }
}

/// A client's status for a service at some instant, and the decision it rests on.
public struct AccessState: Hashable, Sendable {
  /// The client.
  public let client: String
  /// The service.
  public let service: Service
  /// The status.
  public let status: AuthorizationStatus
  /// The position of the decision; `nil` when never decided.
  public let decision: LogPosition?
  /// Why; `nil` when never decided.
  public let reason: DecisionReason?
}
