internal import LMDB

/// The live push registrations (``PushRegistration``), derived from the log: made by
/// ``RecordKind/pushRegistered``, ended by ``RecordKind/pushUnregistered``, by the removal of their
/// collection, and by a decision that leaves their app unable to read the collection's service
/// (denied, restricted, write-only, or not determined after a reset) or by the revocation of the
/// token it was made with (``RecordKind/clientTokenRevoked``) — so a revoked app's or a lost
/// device's registrations end in the same transaction as the decision, with no record of their own.
///
/// Databases:
/// - `push.registrations`: key `id (16)` → payload {1 client, 2 service, 3 collection (16), 4
///   expires, 5 host, 6 sealed subscription, 7 created, 8 position, 9 token id (when made with one), 10 triggers}.
/// - `push.collections`: key `collection (16) ‖ id (16)` → empty: the registrations of each
///   collection.
/// - `push.clients`: key `client (UTF-8) ‖ 0 ‖ id (16)` → empty: each app's registrations.
struct PushProjection: Projection {
  static let name = "push"
  static let version: UInt32 = 2
  enum DatabaseName {
    static let registrations = "push.registrations"
    static let collections = "push.collections"
    static let clients = "push.clients"
  }
  static let databaseNames = [DatabaseName.registrations, DatabaseName.collections, DatabaseName.clients]
  static let kinds: Set<RecordKind> = [
    .pushRegistered, .pushUnregistered, .accessDecided, .calendarRemoved, .addressBookRemoved, .clientTokenRevoked,
  ]

  let registrations: Database
  let collections: Database
  let clients: Database

  init(databases: [String: Database], log: Database) {
    registrations = databases[DatabaseName.registrations]!
    collections = databases[DatabaseName.collections]!
    clients = databases[DatabaseName.clients]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    let fields = try PayloadReader(bytes: payload)
    switch header.kind {
    case .pushRegistered:
      let id = try fields.requiredObjectID(1)
      let client = try fields.requiredString(2)
      let collection = try fields.requiredObjectID(4)
      var entry = Payload()
      entry.append(tag: 1, string: client)
      entry.append(tag: 2, unsigned: try fields.unsigned(3) ?? 0)
      entry.append(tag: 3, id: collection)
      entry.append(tag: 4, signed: try fields.signed(5) ?? 0)
      entry.append(tag: 5, string: try fields.string(6) ?? "")
      entry.append(tag: 6, bytes: fields.bytes(7) ?? [])
      entry.append(tag: 7, signed: header.timestamp.rawValue)
      entry.append(tag: 8, unsigned: header.position.rawValue)
      if let token = try fields.string(8) { entry.append(tag: 9, string: token) }
      if let triggers = try fields.unsigned(9) { entry.append(tag: 10, unsigned: triggers) }
      try txn.put(entry.bytes, forKey: id.bytes, in: registrations)
      try txn.put([], forKey: collection.bytes + id.bytes, in: collections)
      try txn.put([], forKey: Self.clientKey(client, id), in: clients)
    case .pushUnregistered:
      try end(try fields.requiredObjectID(1), &txn)
    case .accessDecided:
      let status = AuthorizationStatus(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(3) ?? 0))
      guard status != .fullAccess && status != .limited else { return }
      let client = try fields.requiredString(1)
      let service = try fields.unsigned(2) ?? 0
      for id in try registrations(ofClient: client, &txn) {
        guard let entry = try txn.value(forKey: id.bytes, in: registrations),
          try PayloadReader(Payload(bytes: entry)).unsigned(2) == service
        else { continue }
        try end(id, &txn)
      }
    case .clientTokenRevoked:
      let token = try fields.requiredString(2)
      for id in try registrations(ofClient: try fields.requiredString(1), &txn) {
        guard let entry = try txn.value(forKey: id.bytes, in: registrations),
          try PayloadReader(Payload(bytes: entry)).string(9) == token
        else { continue }
        try end(id, &txn)
      }
    case .calendarRemoved, .addressBookRemoved:
      let collection = try fields.requiredObjectID(1)
      let ids = try txn.withCursor(on: collections) { try $0.keys(withPrefix: collection.bytes) }.compactMap {
        ObjectID(bytes: $0[16...])
      }
      for id in ids { try end(id, &txn) }
    default:
      break
    }
  }

  /// Ends the registration `id`, if it is live.
  private func end(_ id: ObjectID, _ txn: inout WriteTransaction) throws {
    guard let entry = try txn.value(forKey: id.bytes, in: registrations) else { return }
    let fields = try PayloadReader(Payload(bytes: entry))
    try txn.delete(id.bytes, in: registrations)
    if let collection = try fields.objectID(3) { _ = try txn.delete(collection.bytes + id.bytes, in: collections) }
    _ = try txn.delete(Self.clientKey(try fields.requiredString(1), id), in: clients)
  }

  private func registrations(ofClient client: String, _ txn: inout WriteTransaction) throws -> [ObjectID] {
    let prefix = Array(client.utf8) + [0]
    return try txn.withCursor(on: clients) { try $0.keys(withPrefix: prefix) }.compactMap {
      ObjectID(bytes: $0[prefix.count...])
    }
  }

  static func clientKey(_ client: String, _ id: ObjectID) -> [UInt8] { Array(client.utf8) + [0] + id.bytes }

  // MARK: Reading

  /// The live registration `id` with its sealed subscription.
  func registration(_ id: ObjectID, in txn: borrowing ReadTransaction) throws -> (PushRegistration, sealed: [UInt8])? {
    try txn.value(forKey: id.bytes, in: registrations).map { try Self.decode(id, $0) }
  }

  /// The live registrations of `client`, or of every app when `nil`, oldest first.
  func registrations(
    ofClient client: String?, in txn: borrowing ReadTransaction
  ) throws -> [PushRegistration] {
    var ids: [ObjectID] = []
    if let client {
      let prefix = Array(client.utf8) + [0]
      ids = try txn.withCursor(on: clients) { try $0.keys(withPrefix: prefix) }.compactMap {
        ObjectID(bytes: $0[prefix.count...])
      }
    } else {
      ids = try txn.withCursor(on: registrations) { try $0.keys(withPrefix: []) }.compactMap { ObjectID(bytes: $0) }
    }
    return try ids.compactMap { try registration($0, in: txn)?.0 }.sorted { $0.version < $1.version }
  }

  /// The live registrations of `collection`, each with its sealed subscription.
  func registrations(
    ofCollection collection: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> [(PushRegistration, sealed: [UInt8])] {
    try txn.withCursor(on: collections) { try $0.keys(withPrefix: collection.bytes) }.compactMap { key in
      try ObjectID(bytes: key[16...]).flatMap { try registration($0, in: txn) }
    }
  }

  static func decode(_ id: ObjectID, _ bytes: [UInt8]) throws -> (PushRegistration, sealed: [UInt8]) {
    let fields = try PayloadReader(Payload(bytes: bytes))
    let registration = PushRegistration(
      id: id, client: try fields.requiredString(1),
      collection: try fields.requiredObjectID(3),
      service: Service(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(2) ?? 0)) ?? .calendars,
      host: try fields.string(5) ?? "", expires: Timestamp(rawValue: try fields.signed(4) ?? 0),
      created: Timestamp(rawValue: try fields.signed(7) ?? 0), version: LogPosition(try fields.unsigned(8) ?? 0),
      triggers: PushTriggers(rawValue: UInt8(truncatingIfNeeded: try fields.unsigned(10) ?? 1)),
      tokenID: try fields.string(9))
    return (registration, fields.bytes(6) ?? [])
  }
}
