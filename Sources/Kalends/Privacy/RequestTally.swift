internal import LMDB

/// The durable count of an app's access requests that asked nobody — the decision stood, so the
/// call returned it — per app, service and minute, so that an app repeating its request in a loop
/// cannot flood the log: the first of a minute is appended at once as an `accessRequested` record;
/// the later ones are counted in the meta database and appended as one record with their count
/// (field 8) and minute (field 9) by the first write after the minute, as refusals are
/// (``RefusalTally``). Requests that ask the person are always appended: they are as rare as the
/// person's answers.
enum RequestTally {
  /// Counts one request of `client` for `level` access to `service` that asked nobody and returned
  /// `status`, in `minute`, inside the write transaction `txn`: appends `draft` when it is the
  /// first of its app, service and minute, else adds it to the tally. `evidence` (the store
  /// server's identification of the caller) is kept beside the tally for the record of the count.
  static func count(
    _ draft: RecordDraft, client: String, service: Service, level: AccessLevel, status: AuthorizationStatus,
    implicit: Bool, minute: Int64, evidence: CallerEvidence?, meta: Database, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws {
    let key = Self.key(client, service, minute)
    let counted = try txn.withValue(forKey: key, in: meta) { value in Array(copying: value) }
    if let counted, counted.count == 11 {
      let count = RecordCodec.readBigEndian(counted[0..<8]) + 1
      try txn.put(encode(count: count, level, status, implicit), forKey: key, in: meta)
      if let evidence { try txn.put(evidence.context, forKey: evidenceKey(key), in: meta) }
    } else {
      try txn.put(encode(count: 0, level, status, implicit), forKey: key, in: meta)
      try appender.append(draft, in: &txn)
    }
  }

  /// Appends the tallies of the minutes before `minute` and removes them.
  static func flush(
    before minute: Int64, meta: Database, _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    let due = try txn.reading { try tallies(in: $0, meta: meta) }.filter { $0.minute < minute }
    for tally in due {
      _ = try txn.delete(tally.key, in: meta)
      let evidence = try txn.withValue(forKey: evidenceKey(tally.key), in: meta) { try CallerEvidence(context: $0) }
      if evidence != nil { _ = try txn.delete(evidenceKey(tally.key), in: meta) }
      guard tally.count > 0 else { continue }
      var payload = Payload()
      payload.append(tag: 1, string: tally.client)
      payload.append(tag: 2, unsigned: UInt64(tally.service.rawValue))
      payload.append(tag: 3, unsigned: UInt64(tally.level.rawValue))
      payload.append(tag: 4, unsigned: UInt64(tally.status.rawValue))
      payload.append(tag: 5, bool: false)
      if tally.implicit { payload.append(tag: 7, bool: true) }
      payload.append(tag: 8, unsigned: tally.count)
      payload.append(tag: 9, signed: tally.minute)
      var draft = RecordDraft(kind: .accessRequested, principal: .client(tally.client), payload: payload)
      draft.identification = evidence
      try appender.append(draft, in: &txn)
    }
  }

  /// Whether a tally of a minute before `minute` waits to reach the log.
  static func hasDue(before minute: Int64, in txn: borrowing ReadTransaction, meta: Database) throws -> Bool {
    try tallies(in: txn, meta: meta).contains { $0.minute < minute }
  }

  // MARK: Format

  /// Meta keys: `request/` ‖ client (UTF-8) ‖ 0x00 ‖ service ‖ minute (8 bytes, big-endian, sign
  /// bit flipped). Values: count of the requests after the first (8 bytes, big-endian) ‖ level ‖
  /// status ‖ implicit (0 or 1), of the last one. Beside it, under `request-caller/`, the caller
  /// context of the last one the store server identified.
  static let prefix = Array("request/".utf8)
  static let evidencePrefix = Array("request-caller/".utf8)

  private struct Tally {
    let key: [UInt8]
    let client: String
    let service: Service
    let minute: Int64
    let count: UInt64
    let level: AccessLevel
    let status: AuthorizationStatus
    let implicit: Bool
  }

  private static func key(_ client: String, _ service: Service, _ minute: Int64) -> [UInt8] {
    var key = prefix + Array(client.utf8) + [0, service.rawValue]
    withUnsafeBytes(of: (UInt64(bitPattern: minute) ^ (1 << 63)).bigEndian) { key.append(contentsOf: $0) }
    return key
  }

  private static func evidenceKey(_ key: [UInt8]) -> [UInt8] { evidencePrefix + key[prefix.count...] }

  private static func encode(
    count: UInt64, _ level: AccessLevel, _ status: AuthorizationStatus, _ implicit: Bool
  ) -> [UInt8] {
    var value: [UInt8] = []
    withUnsafeBytes(of: count.bigEndian) { value.append(contentsOf: $0) }
    return value + [level.rawValue, status.rawValue, implicit ? 1 : 0]
  }

  private static func tallies(in txn: borrowing ReadTransaction, meta: Database) throws -> [Tally] {
    var tallies: [Tally] = []
    try txn.withCursor(on: meta) { cursor in
      try cursor.forEach(withPrefix: prefix) { key, value in
        let bytes = Array(copying: value)
        let rest = key[prefix.count...]
        guard bytes.count == 11, rest.count >= 10, let zero = rest.firstIndex(of: 0), key.endIndex - zero == 10,
          let service = Service(rawValue: key[zero + 1]), let level = AccessLevel(rawValue: bytes[8]),
          let status = AuthorizationStatus(rawValue: bytes[9])
        else { throw StoreError.malformedRecord("a request tally in the meta database is malformed") }
        tallies.append(
          Tally(
            key: key, client: String(decoding: key[prefix.count..<zero], as: UTF8.self), service: service,
            minute: Int64(bitPattern: RecordCodec.readBigEndian(key[(zero + 2)...]) ^ (1 << 63)),
            count: RecordCodec.readBigEndian(bytes[0..<8]), level: level, status: status, implicit: bytes[10] == 1))
      }
    }
    return tallies
  }
}
