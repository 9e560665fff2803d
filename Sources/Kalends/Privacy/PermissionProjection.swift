internal import LMDB

/// The privacy state: registered clients, each client's status per service, when access was last
/// changed from outside each app (which ends its sessions), and per client the positions of its
/// privacy records and the timeline of its decisions (for the audit's `history` and `state --at`).
///
/// Databases (client identifiers are UTF-8 without NUL, so `0x00` separates them from what follows):
/// - `permissions.clients`: `client` → version (8) ‖ the `clientRegistered` payload;
/// - `permissions.status`: `client ‖ 0 ‖ service (1)` → ``PermissionState`` (with the policies
///   that restrict it);
/// - `permissions.external`: `client` → position (8) of its last decision made outside the app;
/// - `permissions.history`: `client ‖ 0 ‖ position (8)` → kind (2): its privacy records, and the
///   calendars and contacts it created (which join what limited access covers);
/// - `permissions.timeline`: `client ‖ 0 ‖ service (1) ‖ time (8, sign-flipped µs) ‖ position (8)` →
///   status (1) ‖ reason (1);
/// - `permissions.tokens`: the SHA-256 of a live app token's secret (32) → position (8) ‖ the
///   `clientTokenCreated` payload;
/// - `permissions.scope`: `client ‖ 0 ‖ service (1) ‖ id (16)` → position (8): the objects the
///   person chose for an app (`accessScopeChanged`: contacts for limited access, calendars for
///   full access to chosen calendars) and the calendars the app created (`calendarSaved`); the key
///   `client ‖ 0 ‖ service (1)` alone marks calendar access as limited to those. A reset clears
///   them.
struct PermissionProjection: Projection {
  static let name = "permissions"
  static let version: UInt32 = 5
  /// The names of the LMDB databases it owns: see the type's documentation for what each holds.
  enum DatabaseName {
    static let clients = "permissions.clients"
    static let status = "permissions.status"
    static let external = "permissions.external"
    static let history = "permissions.history"
    static let timeline = "permissions.timeline"
    static let tokens = "permissions.tokens"
    static let scope = "permissions.scope"
  }
  static let databaseNames = [
    DatabaseName.clients, DatabaseName.status, DatabaseName.external, DatabaseName.history, DatabaseName.timeline,
    DatabaseName.tokens, DatabaseName.scope,
  ]

  static let kinds: Set<RecordKind> = [
    .clientRegistered, .accessRequested, .accessDecided, .accessAttemptRefused, .ownerActionRefused,
    .clientTokenCreated, .clientTokenRevoked, .accessScopeChanged, .contactPicked, .dataRead, .calendarSaved,
    .contactSaved,
  ]

  /// The kinds of the privacy records, which name their client in field 1 (the others it applies
  /// name an object).
  static let privacyKinds: Set<RecordKind> = kinds.subtracting([.calendarSaved, .contactSaved])

  let clients: Database
  let status: Database
  let external: Database
  let history: Database
  let timeline: Database
  let tokens: Database
  let scope: Database

  init(databases: [String: Database], log: Database) {
    clients = databases[DatabaseName.clients]!
    status = databases[DatabaseName.status]!
    external = databases[DatabaseName.external]!
    history = databases[DatabaseName.history]!
    timeline = databases[DatabaseName.timeline]!
    tokens = databases[DatabaseName.tokens]!
    scope = databases[DatabaseName.scope]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    guard Self.kinds.contains(header.kind) else { return }
    if header.kind == .calendarSaved || header.kind == .contactSaved {
      // What an app creates joins what it may use, also when limited to chosen calendars or
      // contacts: a calendar here (`scope`), a contact in the contacts book (`contacts.createdBy`);
      // both in its history, for the audit's replay. The person's saves (an import of thousands
      // of cards) are not read at all.
      guard case .client(let id) = header.principal else { return }
      let fields = try PayloadReader(bytes: payload)
      guard try fields.unsigned(3) == ItemChange.created.rawValue else { return }
      let client = Array(id.utf8)
      if header.kind == .calendarSaved {
        let calendar = try fields.requiredObjectID(1)
        try txn.put(
          Self.position(header), forKey: client + [0, Service.calendars.rawValue] + calendar.bytes, in: scope)
      }
      try addToHistory(header, of: client, &txn)
      return
    }
    let fields = try PayloadReader(bytes: payload)
    let client = Array(try fields.requiredString(1).utf8)
    if header.kind != .clientRegistered, try !txn.contains(client, in: clients) {
      throw RecordRefusal(reason: "\(String(decoding: client, as: UTF8.self)) is not a registered app")
    }
    try addToHistory(header, of: client, &txn)

    switch header.kind {
    case .clientRegistered:
      var value: [UInt8] = []
      RecordCodec.appendBigEndian(header.position.rawValue, to: &value)
      value.append(contentsOf: Array(copying: payload))
      try txn.put(value, forKey: client, in: clients)
    case .accessDecided:
      guard let service = Service(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(2) ?? 0)),
        let newStatus = AuthorizationStatus(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(3) ?? 0)),
        let previousStatus = AuthorizationStatus(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(4) ?? 0)),
        let reason = DecisionReason(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(5) ?? 0))
      else { throw StoreError.malformedPayload("an accessDecided record has an unknown service, status or reason") }
      let key = client + [0, service.rawValue]
      let previous = try txn.withValue(forKey: key, in: status) { PermissionState(decoding: $0) } ?? PermissionState()
      let change = try PermissionChange(
        reason: reason, principal: header.principal, status: newStatus, lifts: try fields.bool(6))
      let next = try change.applied(to: previous, service: service, at: header.position)
      guard previousStatus == previous.status, newStatus == next.status else {
        throw RecordRefusal(
          reason: "the decision records \(previousStatus) -> \(newStatus), but the rules give \(previous.status) -> "
            + "\(next.status)")
      }
      try txn.put(next.encoded, forKey: key, in: status)
      if reason.isExternal {
        try txn.put(Self.position(header), forKey: client, in: external)
      }
      var timelineKey = key
      RangeKey.append(header.timestamp.rawValue, to: &timelineKey)
      RecordCodec.appendBigEndian(header.position.rawValue, to: &timelineKey)
      try txn.put([newStatus.rawValue, reason.rawValue], forKey: timelineKey, in: timeline)
      if reason == .reset {
        for key in try txn.withCursor(on: scope, { try $0.keys(withPrefix: client + [0, service.rawValue]) }) {
          try txn.delete(key, in: scope)
        }
      }
    case .accessScopeChanged:
      guard let service = Service(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(2) ?? 0)) else {
        throw StoreError.malformedPayload("an accessScopeChanged record has an unknown service")
      }
      guard service != .reminders else { throw RecordRefusal(reason: "reminder lists are not chosen one by one") }
      let position = Self.position(header)
      if service == .calendars, let scoped = try fields.bool(5) {
        if scoped {
          try txn.put(position, forKey: client + [0, service.rawValue], in: scope)
        } else {
          try txn.delete(client + [0, service.rawValue], in: scope)
        }
      }
      for id in try fields.objectIDs(4) { try txn.delete(client + [0, service.rawValue] + id.bytes, in: scope) }
      for id in try fields.objectIDs(3) {
        try txn.put(position, forKey: client + [0, service.rawValue] + id.bytes, in: scope)
      }
    case .clientTokenCreated:
      try applyTokenCreated(header, payload: payload, fields, in: &txn)
    case .clientTokenRevoked:
      try applyTokenRevoked(fields, in: &txn)
    default:
      break
    }
  }

  /// Lists the record `header` in `client`'s history (`permissions.history`).
  private func addToHistory(_ header: LogRecordHeader, of client: [UInt8], _ txn: inout WriteTransaction) throws {
    var historyKey = client + [0]
    RecordCodec.appendBigEndian(header.position.rawValue, to: &historyKey)
    var kind: [UInt8] = []
    withUnsafeBytes(of: header.kind.rawValue.bigEndian) { kind.append(contentsOf: $0) }
    try txn.put(kind, forKey: historyKey, in: history)
  }

  /// The position of the record `header`, as the 8 big-endian bytes the databases store.
  private static func position(_ header: LogRecordHeader) -> [UInt8] {
    var position: [UInt8] = []
    RecordCodec.appendBigEndian(header.position.rawValue, to: &position)
    return position
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
  /// The contacts `client` may use with limited access to contacts — those the person chose and
  /// those it created (`book`) — or `nil` when its status is not `limited`.
  func contactScope(
    _ client: String, book: ContactsProjection, in txn: borrowing ReadTransaction
  ) throws -> Set<ObjectID>? {
    guard try state(client, .contacts, in: txn).status == .limited else { return nil }
    return try chosen(client, .contacts, in: txn).union(book.created(by: client, in: txn))
  }

  /// The calendars `client`'s full access to calendars is limited to (those the person chose and
  /// those it created), or `nil` when it has no full access or it covers every calendar.
  func calendarScope(_ client: String, in txn: borrowing ReadTransaction) throws -> Set<ObjectID>? {
    guard try state(client, .calendars, in: txn).status == .fullAccess, try isScoped(client, .calendars, in: txn)
    else { return nil }
    return try chosen(client, .calendars, in: txn)
  }

  /// Whether `client`'s full access to calendars is limited to chosen calendars.
  func isScoped(_ client: String, _ service: Service, in txn: borrowing ReadTransaction) throws -> Bool {
    try txn.contains(Array(client.utf8) + [0, service.rawValue], in: scope)
  }

  /// The objects chosen for `client`'s access to `service` (for calendars, with those it created).
  func chosen(_ client: String, _ service: Service, in txn: borrowing ReadTransaction) throws -> Set<ObjectID> {
    let prefix = Array(client.utf8) + [0, service.rawValue]
    return Set(
      try txn.withCursor(on: scope) { try $0.keys(withPrefix: prefix) }.compactMap {
        ObjectID(bytes: $0[prefix.count...])
      })
  }

  /// Whether a decision about `client`'s access or a choice of what it may see (`accessDecided`,
  /// `accessScopeChanged`) was recorded after `position`: then what it sees may have changed in a
  /// way no list of changed objects since `position` tells (a contact chosen for it, or taken
  /// back, changed nothing of the contact).
  func accessChanged(_ client: String, after position: LogPosition, in txn: borrowing ReadTransaction) throws -> Bool {
    let prefix = Array(client.utf8) + [0]
    var start = prefix
    RecordCodec.appendBigEndian(position.rawValue &+ 1, to: &start)
    let kinds = [RecordKind.accessDecided, .accessScopeChanged].map { kind in
      withUnsafeBytes(of: kind.rawValue.bigEndian) { Array($0) }
    }
    return try txn.withCursor(on: history) { cursor in
      guard try cursor.seek(atLeast: start) else { return false }
      var found = false
      try cursor.scanForward { key, value in
        guard key.byteCount > prefix.count, Array(copying: key).starts(with: prefix) else { return .stop }
        if kinds.contains(Array(copying: value)) {
          found = true
          return .stop
        }
        return .continue
      }
      return found
    }
  }

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
    let executable = try fields.string(7)
    let digest = fields.bytes(8)
    let flatpakApp = try fields.string(9)
    if executable != nil || digest != nil || flatpakApp != nil {
      client.requirement = CodeRequirement(executable: executable, executableSHA256: digest, flatpakApp: flatpakApp)
    }
    if let sdk = try fields.unsigned(10) { client.sdk = Int(clamping: sdk) }
    client.version = position(bytes.span.bytes)
    return client
  }

  static func position(_ bytes: RawSpan) -> LogPosition {
    LogPosition(UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)))
  }
}
