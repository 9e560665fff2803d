/// Replays a log's privacy records into the access they leave at an instant: the answers of
/// ``PrivacyAudit/state(at:)``, which reads a store's projections, computed from records held
/// elsewhere (the fleet's mirror holds stores' records, not their projections).
///
/// Contract: give it the records `concern(of:)` names a client for (others are
/// ignored), each client's in log order; records of different clients may interleave in any order,
/// as each client's access depends on its own records alone. A record stamped after the instant is
/// skipped, not an end: a wrong clock may have stamped it ahead of records made after it, and the
/// decision in force is the last one *made* among those stamped by then.
package struct AccessReplay: Sendable {
  /// The instant replayed to; `.max` for the head of the log.
  package let instant: Timestamp
  /// Each client's registered name (its latest registration by then).
  package private(set) var names: [String: String] = [:]
  /// When each client's first record was stamped: a client is listed once it is registered.
  private var registered: [String: Timestamp] = [:]
  private var decisions: [Key: AccessState] = [:]
  private var scopes: [Key: Scope] = [:]

  private struct Key: Hashable {
    let client: String
    let service: Service
  }

  /// What a client's access covers when limited: the chosen objects and, for calendars, whether
  /// full access is limited to them at all.
  private struct Scope {
    var limited: Bool
    var chosen: Set<ObjectID> = []
  }

  /// A replay to `instant` (`nil`: the head of the log, every record counted).
  package init(at instant: Timestamp? = nil) {
    self.instant = instant ?? Timestamp(rawValue: .max)
  }

  /// The client a record concerns, when it is one the replay needs: a privacy record names its
  /// client; a calendar or contact an app created joins what its access covers. `nil` for the rest.
  package static func concern(of record: RawSpan) throws(StoreError) -> (
    client: String, kind: RecordKind, timestamp: Timestamp
  )? {
    guard let (header, fields) = try decoded(record), let client = try Self.client(header, fields) else { return nil }
    return (client, header.kind, header.timestamp)
  }

  /// The header and fields of `record`, when its kind is one the replay reads.
  private static func decoded(_ record: RawSpan) throws(StoreError) -> (LogRecordHeader, PayloadReader)? {
    let (header, payload) = try RecordCodec.decodeHeader(record)
    guard PermissionProjection.kinds.contains(header.kind) else { return nil }
    return (header, try PayloadReader(bytes: record.extracting(payload)))
  }

  /// `concern(of:)`'s client, from the record's decoded header and fields.
  private static func client(_ header: LogRecordHeader, _ fields: PayloadReader) throws(StoreError) -> String? {
    if header.kind == .calendarSaved || header.kind == .contactSaved {
      guard case .client(let id) = header.principal, try fields.unsigned(3) == ItemChange.created.rawValue else {
        return nil
      }
      return id
    }
    return try fields.requiredString(1)
  }

  /// Applies one record (see the type's contract for the order).
  package mutating func apply(_ record: RawSpan) throws(StoreError) {
    guard let (header, fields) = try Self.decoded(record), let client = try Self.client(header, fields) else { return }
    let stamped = header.timestamp
    // The first record of a client, by position, is its registration: its stamp says from when
    // the client is listed, as the store's audit says.
    if registered[client] == nil { registered[client] = stamped }
    guard stamped <= instant else { return }
    func service() throws(StoreError) -> Service? {
      try fields.unsigned(2).flatMap { Service(rawValue: UInt8(truncatingIfNeeded: $0)) }
    }
    switch header.kind {
    case .clientRegistered:
      if let name = try fields.string(2) { names[client] = name }
    case .accessDecided:
      guard let service = try service() else { return }
      let status = try fields.unsigned(3).flatMap { AuthorizationStatus(rawValue: UInt8(truncatingIfNeeded: $0)) }
      let reason = try fields.unsigned(5).flatMap { DecisionReason(rawValue: UInt8(truncatingIfNeeded: $0)) }
      let key = Key(client: client, service: service)
      decisions[key] = AccessState(
        client: client, service: service, status: status ?? .notDetermined, decision: header.position, reason: reason)
      if reason == .reset { scopes[key] = nil }
    case .accessScopeChanged:
      guard let service = try service() else { return }
      let key = Key(client: client, service: service)
      var scope = scopes[key] ?? Scope(limited: service == .contacts)
      scope.chosen.subtract(try fields.objectIDs(4))
      scope.chosen.formUnion(try fields.objectIDs(3))
      if service == .calendars, let limited = try fields.bool(5) { scope.limited = limited }
      scopes[key] = scope
    case .calendarSaved, .contactSaved:
      let service: Service = header.kind == .calendarSaved ? .calendars : .contacts
      let key = Key(client: client, service: service)
      var scope = scopes[key] ?? Scope(limited: service == .contacts)
      scope.chosen.insert(try fields.requiredObjectID(1))
      scopes[key] = scope
    default:
      break
    }
  }

  /// The status of every client registered by the instant, for every service, with the decision
  /// it rests on; by client (in the byte order of their identifiers), then service.
  package var states: [AccessState] {
    let clients = registered.filter { $0.value <= instant }.keys.sorted {
      Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
    }
    return clients.flatMap { client in
      Service.allCases.map { service in
        let key = Key(client: client, service: service)
        var state =
          decisions[key]
          ?? AccessState(client: client, service: service, status: .notDetermined, decision: nil, reason: nil)
        if (service == .calendars && state.status == .fullAccess) || (service == .contacts && state.status == .limited)
        {
          let scope = scopes[key] ?? Scope(limited: service == .contacts)
          state.chosen = scope.limited ? scope.chosen.sorted() : nil
        }
        return state
      }
    }
  }
}

extension AuditEntry {
  /// The privacy fact a log record states, with the server's evidence when it holds some; `nil`
  /// for a record of another kind (a save, a read). `record` is a record's bytes as the log stores
  /// them (`Store.recordBytes(from:through:)`).
  package static func decoded(record: RawSpan) throws(StoreError) -> AuditEntry? {
    var principals = PrincipalCache()
    let decoded = try RecordCodec.decodeHeader(record, principals: &principals)
    guard PrivacyAudit.privacyKinds.contains(decoded.header.kind) else { return nil }
    let identification = try decoded.context.map { range throws(StoreError) in
      try CallerEvidence(context: record.extracting(range))
    }
    return try AuditEntry(
      decoded.header, try PayloadReader(bytes: record.extracting(decoded.payload)), identification: identification)
  }
}

extension AccessState {
  /// Whether this access lets its client use `service` (full access reads and writes, write-only
  /// adds, limited access uses the chosen contacts) and, with `object`, covers that calendar or
  /// contact.
  package func allows(_ service: Service, object: ObjectID? = nil) -> Bool {
    guard self.service == service, [.fullAccess, .writeOnly, .limited].contains(status) else { return false }
    guard let object, let chosen else { return true }
    return chosen.contains(object)
  }
}
