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
          guard let entry = try AuditEntry.decoded(record: value) else { return }
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
          try forEachRecord(txn, keep)
        }
        return Self.inOrderOfOccurrence(entries)
      }
    }
  }

  /// `entries` (in the log's order) in the order things happened: a record of a minute's later
  /// refusals, appended after the minute, goes right after that minute's first refusal of the same
  /// app, service and kind (or at the minute's start), before what the app was granted after it.
  package static func inOrderOfOccurrence(_ entries: [AuditEntry]) -> [AuditEntry] {
    var placed = entries
    for (index, entry) in entries.enumerated() {
      guard let minute = entry.minute else { continue }
      let (start, end) = (Timestamp(rawValue: minute * 60_000_000), Timestamp(rawValue: (minute + 1) * 60_000_000))
      guard entry.timestamp >= end else { continue }
      let first = entries.first { other in
        other.kind == entry.kind && other.client == entry.client && other.service == entry.service
          && other.timestamp >= start && other.timestamp < end
      }
      placed[index].occurred = Timestamp(rawValue: (first?.timestamp ?? start).rawValue + 1)
    }
    return placed.enumerated().sorted { ($0.element.occurred, $0.offset) < ($1.element.occurred, $1.offset) }
      .map(\.element)
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
  /// ``state(at:)``): full access reads and writes, write-only adds, limited access uses the chosen
  /// contacts. With `object` (a calendar, or a contact), only those whose access covers it.
  public func whoCan(
    _ service: Service, object: ObjectID? = nil, at instant: Timestamp? = nil
  ) throws(StoreError) -> [AccessState] {
    try state(at: instant).filter { $0.allows(service, object: object) }
  }

  // MARK: Plumbing

  /// Hands every record of the log, in order, to `body`: for what no per-app index finds.
  func forEachRecord(_ txn: borrowing ReadTransaction, _ body: (RawSpan) throws -> Void) throws {
    try txn.withCursor(on: store.log) { cursor in
      _ = try cursor.scanForward { _, value in
        try body(value)
        return .continue
      }
    }
  }

  /// The kinds ``history(client:service:since:until:)`` lists: the decisions and what led to them;
  /// an app's reads are ``uses(client:service:object:since:until:)``'s.
  static let privacyKinds: Set<RecordKind> = PermissionProjection.privacyKinds.subtracting([.dataRead])

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
    // The decision in force at `instant` is the last one *made* (by position) among those stamped
    // by then: a decision stamped ahead by a wrong clock never shadows one made after it.
    let prefix = Array(client.utf8) + [0, service.rawValue]
    var found: AccessState?
    var latest: UInt64 = 0
    try txn.withCursor(on: permissions.timeline) { cursor in
      try cursor.forEach(withPrefix: prefix) { key, value in
        guard key.count == prefix.count + 16 else { return }
        let stamped = Int64(bitPattern: RecordCodec.readBigEndian(key[prefix.count..<(prefix.count + 8)]) ^ (1 << 63))
        guard stamped <= instant.rawValue else { return }
        let position = RecordCodec.readBigEndian(key[(prefix.count + 8)...])
        guard position > latest else { return }
        latest = position
        let bytes = Array(copying: value)
        found = AccessState(
          client: client, service: service, status: AuthorizationStatus(rawValue: bytes[0]) ?? .notDetermined,
          decision: LogPosition(position), reason: DecisionReason(rawValue: bytes[1]))
      }
    }
    var state =
      found ?? AccessState(client: client, service: service, status: .notDetermined, decision: nil, reason: nil)
    if (service == .calendars && state.status == .fullAccess) || (service == .contacts && state.status == .limited) {
      state.chosen = try chosen(of: client, service, at: instant, permissions, txn)
    }
    return state
  }

  /// What `client`'s access to `service` covers at `instant`, replayed from its history: the
  /// choices of `accessScopeChanged` records (cleared by a reset) and the calendars or contacts it
  /// created; `nil` when calendar access is not limited.
  private func chosen(
    of client: String, _ service: Service, at instant: Timestamp, _ permissions: PermissionProjection,
    _ txn: borrowing ReadTransaction
  ) throws -> [ObjectID]? {
    let prefix = Array(client.utf8) + [0]
    let keys = try txn.withCursor(on: permissions.history) { try $0.keys(withPrefix: prefix) }
    var scoped = service == .contacts
    var chosen: Set<ObjectID> = []
    for key in keys where key.count == prefix.count + 8 {
      let position = RecordCodec.readBigEndian(key[prefix.count...])
      // A record stamped after `instant` is skipped, not the end: a wrong clock may have stamped
      // it ahead of records made after it.
      let stop = try txn.withValue(forKey: BigEndianKey(position), in: store.log) { value -> Bool in
        let decoded = try RecordCodec.decodeHeader(value)
        guard decoded.0.timestamp <= instant else { return false }
        let kind = decoded.0.kind
        guard [.accessScopeChanged, .accessDecided, .calendarSaved, .contactSaved].contains(kind) else { return false }
        let fields = try PayloadReader(bytes: value.extracting(decoded.1))
        let recordService =
          kind == .calendarSaved || kind == .contactSaved
          ? nil : try fields.unsigned(2).flatMap { Service(rawValue: UInt8(truncatingIfNeeded: $0)) }
        switch kind {
        case .accessScopeChanged where recordService == service:
          for id in try fields.objectIDs(4) { chosen.remove(id) }
          chosen.formUnion(try fields.objectIDs(3))
          if service == .calendars, let flag = try fields.bool(5) { scoped = flag }
        case .accessDecided where recordService == service:
          if try fields.unsigned(5) == UInt64(DecisionReason.reset.rawValue) {
            chosen = []
            scoped = service == .contacts
          }
        case .calendarSaved where service == .calendars, .contactSaved where service == .contacts:
          if try fields.unsigned(3) == ItemChange.created.rawValue { chosen.insert(try fields.requiredObjectID(1)) }
        default:
          break
        }
        return false
      }
      if stop == true { break }
    }
    return scoped ? chosen.sorted() : nil
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
  /// What the access covers when it does not cover everything: for calendars with full access
  /// limited to chosen calendars, those calendars (with the ones the app created); for contacts
  /// with limited access, the contacts the person chose. `nil`: everything the status allows.
  public var chosen: [ObjectID]? = nil
}
