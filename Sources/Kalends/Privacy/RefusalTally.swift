package import LMDB

/// The durable count of refused calls, per app, service and minute, across every process and
/// session of a store, so that a loop of refusals cannot flood the log and no count is lost. An
/// app's attempts at what only the owner may do count alike, as a service of their own.
///
/// Each refused call is counted in its own write transaction, committed before the call returns:
/// - the first refusal of an app, service and minute is appended to the log at once, as an
///   `accessAttemptRefused` record (`ownerActionRefused` for an owner-only action) with count 1;
/// - later ones in that minute are counted in the store's meta database (one entry per app,
///   service and minute), and appended as one record with their count by the first write to the
///   store, of any kind, after that minute has ended.
///
/// So the log holds at most two records per app, service and minute, the sum of their counts is
/// exactly the number of refused calls, and a crash loses nothing: what is not in the log yet is
/// committed in the meta database, and ``pending(in:meta:)`` reads it for the audit
/// (``PrivacyAudit/pendingRefusals(client:)``).
package enum RefusalTally {
  /// The minute of `timestamp`, as recorded in a refusal's field 6.
  package static func minute(of timestamp: Timestamp) -> Int64 {
    timestamp.rawValue.floorDividedWithRemainder(by: 60_000_000).quotient
  }

  /// Counts one refusal in `minute` inside the write transaction `txn`: appends its record when it
  /// is the first of its app, service and minute, else adds it to the tally. `service` and
  /// `status` are `nil` for an owner-only action.
  /// `evidence` is how the store server identified the refused caller: kept beside the tally, so
  /// that the record of the minute's later refusals carries it as the first one's does.
  package static func count(
    _ client: String, _ service: Service?, _ status: AuthorizationStatus?, _ operation: String, minute: Int64,
    evidence: CallerEvidence? = nil, meta: Database, _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    let key = Self.key(client, service, minute)
    let counted = try txn.withValue(forKey: key, in: meta) { try Self.decode(client, service, minute, $0) }
    if let counted {
      try txn.put(Self.encode(count: counted.count + 1, status, operation), forKey: key, in: meta)
      if let evidence { try txn.put(evidence.context, forKey: evidenceKey(key), in: meta) }
    } else {
      try txn.put(Self.encode(count: 0, status, operation), forKey: key, in: meta)
      try appender.append(draft(client, service, status, operation, count: 1, minute: minute), in: &txn)
    }
  }

  /// Appends the tallies of the minutes before `minute` and removes them; called by every write
  /// of the store, so that what was counted reaches the log with the next write after its minute.
  static func flush(before minute: Int64, meta: Database, _ txn: inout WriteTransaction, _ appender: inout LogAppender)
    throws
  {
    let due = try txn.reading { try tallies(in: $0, meta: meta) }.filter { $0.pending.minute < minute }
    for (key, pending) in due {
      _ = try txn.delete(key, in: meta)
      let evidence = try txn.withValue(forKey: evidenceKey(key), in: meta) { try CallerEvidence(context: $0) }
      if evidence != nil { _ = try txn.delete(evidenceKey(key), in: meta) }
      guard pending.count > 0 else { continue }
      var record = draft(
        pending.client, pending.service, pending.status, pending.operation, count: pending.count,
        minute: pending.minute)
      record.identification = evidence
      try appender.append(record, in: &txn)
    }
  }

  /// Whether a tally of a minute before `minute` waits to reach the log.
  static func hasDue(before minute: Int64, in txn: borrowing ReadTransaction, meta: Database) throws -> Bool {
    try tallies(in: txn, meta: meta).contains { $0.pending.minute < minute }
  }

  /// The refusals counted and not yet in the log, by app, service and minute.
  static func pending(in txn: borrowing ReadTransaction, meta: Database) throws -> [PendingRefusal] {
    try tallies(in: txn, meta: meta).map(\.pending).filter { $0.count > 0 }
  }

  /// Every tally in `meta`, with its key, in key order.
  private static func tallies(
    in txn: borrowing ReadTransaction, meta: Database
  ) throws -> [(key: [UInt8], pending: PendingRefusal)] {
    var tallies: [(key: [UInt8], pending: PendingRefusal)] = []
    try txn.withCursor(on: meta) { cursor in
      try cursor.forEach(withPrefix: prefix) { key, value in tallies.append((key, try decode(key: key, value))) }
    }
    return tallies
  }

  // MARK: Format

  /// Meta keys: `refusal/` ‖ client (UTF-8) ‖ 0x00 ‖ service (0: an owner-only action) ‖ minute
  /// (8 bytes, big-endian, sign bit flipped so that keys sort by minute). Values: count (8 bytes,
  /// big-endian) ‖ status (0xFF: none) ‖ operation (UTF-8).
  static let prefix = Array("refusal/".utf8)
  /// Beside a tally, under `refusal-caller/` and the rest of its key: the caller context (as in a
  /// record, docs/log-format.md §2) of the last refused call the store server identified.
  static let evidencePrefix = Array("refusal-caller/".utf8)

  private static func evidenceKey(_ key: [UInt8]) -> [UInt8] { evidencePrefix + key[prefix.count...] }

  private static func key(_ client: String, _ service: Service?, _ minute: Int64) -> [UInt8] {
    var key = prefix + Array(client.utf8) + [0, service?.rawValue ?? 0]
    withUnsafeBytes(of: (UInt64(bitPattern: minute) ^ (1 << 63)).bigEndian) { key.append(contentsOf: $0) }
    return key
  }

  private static func encode(count: Int, _ status: AuthorizationStatus?, _ operation: String) -> [UInt8] {
    var value: [UInt8] = []
    withUnsafeBytes(of: UInt64(count).bigEndian) { value.append(contentsOf: $0) }
    return value + [status?.rawValue ?? 0xFF] + Array(operation.utf8)
  }

  private static func decode(key: [UInt8], _ value: RawSpan) throws -> PendingRefusal {
    let rest = key[prefix.count...]
    guard rest.count >= 10, let zero = rest.firstIndex(of: 0), key.endIndex - zero == 10,
      key[zero + 1] == 0 || Service(rawValue: key[zero + 1]) != nil
    else { throw StoreError.malformedRecord("a refusal tally's key in the meta database is malformed") }
    let service = Service(rawValue: key[zero + 1])
    let client = String(decoding: key[prefix.count..<zero], as: UTF8.self)
    let minute = Int64(bitPattern: RecordCodec.readBigEndian(key[(zero + 2)...]) ^ (1 << 63))
    return try decode(client, service, minute, value)
  }

  private static func decode(_ client: String, _ service: Service?, _ minute: Int64, _ value: RawSpan) throws
    -> PendingRefusal
  {
    let bytes = Array(copying: value)
    guard bytes.count >= 9, bytes[8] == 0xFF || AuthorizationStatus(rawValue: bytes[8]) != nil else {
      throw StoreError.malformedRecord("a refusal tally in the meta database is malformed")
    }
    let status = AuthorizationStatus(rawValue: bytes[8])
    return PendingRefusal(
      client: client, service: service, minute: minute, status: status,
      operation: String(decoding: bytes[9...], as: UTF8.self),
      count: Int(clamping: RecordCodec.readBigEndian(bytes[0..<8])))
  }

  private static func draft(
    _ client: String, _ service: Service?, _ status: AuthorizationStatus?, _ operation: String, count: Int,
    minute: Int64
  ) -> RecordDraft {
    var payload = Payload()
    payload.append(tag: 1, string: client)
    if let service { payload.append(tag: 2, unsigned: UInt64(service.rawValue)) }
    if let status { payload.append(tag: 3, unsigned: UInt64(status.rawValue)) }
    payload.append(tag: 4, string: operation)
    payload.append(tag: 5, unsigned: UInt64(count))
    payload.append(tag: 6, signed: minute)
    let kind: RecordKind = service == nil ? .ownerActionRefused : .accessAttemptRefused
    return RecordDraft(kind: kind, principal: .client(client), payload: payload)
  }
}
