internal import LMDB

/// The privacy state: registered clients, each client's status per service, when access was last
/// changed from outside each app (which ends its sessions), and per client the positions of its
/// privacy records and the timeline of its decisions (for the audit's `history` and `state --at`).
///
/// Databases (client identifiers are UTF-8 without NUL, so `0x00` separates them from what follows):
/// - `permissions.clients`: `client` → version (8) ‖ the `clientRegistered` payload;
/// - `permissions.status`: `client ‖ 0 ‖ service (1)` → ``PermissionState``;
/// - `permissions.external`: `client` → position (8) of its last decision made outside the app;
/// - `permissions.history`: `client ‖ 0 ‖ position (8)` → kind (2);
/// - `permissions.timeline`: `client ‖ 0 ‖ service (1) ‖ time (8, sign-flipped µs) ‖ position (8)` →
///   status (1) ‖ reason (1).
struct PermissionProjection: Projection {
  static let name = "permissions"
  static let version: UInt32 = 1
  static let databaseNames = [
    "permissions.clients", "permissions.status", "permissions.external", "permissions.history",
    "permissions.timeline",
  ]

  static let kinds: Set<RecordKind> = [.clientRegistered, .accessRequested, .accessDecided, .accessAttemptRefused]

  let clients: Database
  let status: Database
  let external: Database
  let history: Database
  let timeline: Database

  init(databases: [String: Database], log: Database) {
    clients = databases["permissions.clients"]!
    status = databases["permissions.status"]!
    external = databases["permissions.external"]!
    history = databases["permissions.history"]!
    timeline = databases["permissions.timeline"]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    switch header.kind {
    case .clientRegistered, .accessRequested, .accessDecided, .accessAttemptRefused:
      break
    default:
      return
    }
    let fields = try PayloadReader(bytes: payload)
    let client = Array(try fields.requiredString(1).utf8)
    var historyKey = client + [0]
    RecordCodec.appendBigEndian(header.position.rawValue, to: &historyKey)
    var kind: [UInt8] = []
    withUnsafeBytes(of: header.kind.rawValue.bigEndian) { kind.append(contentsOf: $0) }
    try txn.put(kind, forKey: historyKey, in: history)

    switch header.kind {
    case .clientRegistered:
      var value: [UInt8] = []
      RecordCodec.appendBigEndian(header.position.rawValue, to: &value)
      value.append(contentsOf: Array(copying: payload))
      try txn.put(value, forKey: client, in: clients)
    case .accessDecided:
      guard let service = Service(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(2) ?? 0)),
        let newStatus = AuthorizationStatus(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(3) ?? 0)),
        let reason = DecisionReason(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(5) ?? 0))
      else { throw StoreError.malformedPayload("an accessDecided record has an unknown service, status or reason") }
      let key = client + [0, service.rawValue]
      let previous = try txn.withValue(forKey: key, in: status) { PermissionState(decoding: $0) } ?? PermissionState()
      var next = PermissionState(
        status: newStatus, reason: reason, position: header.position,
        underlying: newStatus == .restricted
          ? (previous.status == .restricted ? previous.underlying : previous.status) : newStatus,
        upgradeAsked: reason == .reset ? false : previous.upgradeAsked || reason == .upgrade)
      if reason == .reset { next.underlying = .notDetermined }
      try txn.put(next.encoded, forKey: key, in: status)
      if reason.isExternal {
        var position: [UInt8] = []
        RecordCodec.appendBigEndian(header.position.rawValue, to: &position)
        try txn.put(position, forKey: client, in: external)
      }
      var timelineKey = key
      RangeKey.append(header.timestamp.rawValue, to: &timelineKey)
      RecordCodec.appendBigEndian(header.position.rawValue, to: &timelineKey)
      try txn.put([newStatus.rawValue, reason.rawValue], forKey: timelineKey, in: timeline)
    default:
      break
    }
  }

  // MARK: Reading

  /// The stored state of `client` for `service` (`notDetermined` when never decided).
  func state(_ client: String, _ service: Service, in txn: borrowing ReadTransaction) throws -> PermissionState {
    try txn.withValue(forKey: Array(client.utf8) + [0, service.rawValue], in: status) {
      PermissionState(decoding: $0)
    } ?? PermissionState()
  }

  /// The stored state of `client` for `service` (`notDetermined` when never decided).
  func state(_ client: String, _ service: Service, in txn: borrowing WriteTransaction) throws -> PermissionState {
    try txn.withValue(forKey: Array(client.utf8) + [0, service.rawValue], in: status) {
      PermissionState(decoding: $0)
    } ?? PermissionState()
  }

  /// The position of the last decision about `client` made outside the app; `.none` if there is none.
  func lastExternalChange(_ client: String, in txn: borrowing ReadTransaction) throws -> LogPosition {
    try txn.withValue(forKey: Array(client.utf8), in: external) { Self.position($0) } ?? .none
  }

  /// The position of the last decision about `client` made outside the app; `.none` if there is none.
  func lastExternalChange(_ client: String, in txn: borrowing WriteTransaction) throws -> LogPosition {
    try txn.withValue(forKey: Array(client.utf8), in: external) { Self.position($0) } ?? .none
  }

  /// The registered client `id`, or `nil`.
  func client(_ id: String, in txn: borrowing ReadTransaction) throws -> Client? {
    try txn.value(forKey: Array(id.utf8), in: clients).map { try Self.decodeClient($0) }
  }

  /// The registered client `id`, or `nil`.
  func client(_ id: String, in txn: borrowing WriteTransaction) throws -> Client? {
    try txn.value(forKey: Array(id.utf8), in: clients).map { try Self.decodeClient($0) }
  }

  /// Every registered client, by identifier.
  func allClients(in txn: borrowing ReadTransaction) throws -> [Client] {
    var result: [Client] = []
    try txn.withCursor(on: clients) { cursor in
      guard try cursor.first() else { return }
      _ = try cursor.scanForward { _, value in
        result.append(try Self.decodeClient(Array(copying: value)))
        return .continue
      }
    }
    return result
  }

  static func decodeClient(_ bytes: [UInt8]) throws -> Client {
    guard bytes.count >= 8 else { throw StoreError.malformedPayload("a stored client is truncated") }
    let fields = try PayloadReader(Payload(bytes: Array(bytes[8...])))
    var usage: [Client.Usage: String] = [:]
    for kind in Client.Usage.allCases {
      if let text = try fields.string(kind.rawValue) { usage[kind] = text }
    }
    var client = Client(id: try fields.requiredString(1), name: try fields.requiredString(2), usageDescriptions: usage)
    client.version = position(bytes.span.bytes)
    return client
  }

  static func position(_ bytes: RawSpan) -> LogPosition {
    LogPosition(UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)))
  }
}

/// One client's standing for one service.
struct PermissionState: Hashable, Sendable {
  /// The current status.
  var status: AuthorizationStatus = .notDetermined
  /// Why it is so (meaningless while `notDetermined` without a decision).
  var reason: DecisionReason = .reset
  /// The decision's position; `.none` when never decided.
  var position: LogPosition = .none
  /// The person's status under a policy restriction (what lifting it returns to).
  var underlying: AuthorizationStatus = .notDetermined
  /// Whether the one upgrade prompt from write-only to full access was shown.
  var upgradeAsked = false

  init() {}

  init(
    status: AuthorizationStatus, reason: DecisionReason, position: LogPosition, underlying: AuthorizationStatus,
    upgradeAsked: Bool
  ) {
    self.status = status
    self.reason = reason
    self.position = position
    self.underlying = underlying
    self.upgradeAsked = upgradeAsked
  }

  init(decoding bytes: RawSpan) {
    guard bytes.byteCount >= 12 else { return }
    status = AuthorizationStatus(rawValue: bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self)) ?? .notDetermined
    reason = DecisionReason(rawValue: bytes.unsafeLoad(fromByteOffset: 1, as: UInt8.self)) ?? .reset
    position = LogPosition(UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 2, as: UInt64.self)))
    underlying = AuthorizationStatus(rawValue: bytes.unsafeLoad(fromByteOffset: 10, as: UInt8.self)) ?? .notDetermined
    upgradeAsked = bytes.unsafeLoad(fromByteOffset: 11, as: UInt8.self) == 1
  }

  /// `status (1) ‖ reason (1) ‖ position (8) ‖ underlying (1) ‖ upgradeAsked (1)`.
  var encoded: [UInt8] {
    var out: [UInt8] = [status.rawValue, reason.rawValue]
    RecordCodec.appendBigEndian(position.rawValue, to: &out)
    out.append(underlying.rawValue)
    out.append(upgradeAsked ? 1 : 0)
    return out
  }
}
