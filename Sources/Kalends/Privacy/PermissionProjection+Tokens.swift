internal import LMDB

extension PermissionProjection {
  // MARK: App tokens

  /// Stores a created token under its digest, after checking that the record is coherent: a
  /// 32-byte digest, the id derived from it, and no live token with that digest.
  func applyTokenCreated(
    _ header: LogRecordHeader, payload: RawSpan, _ fields: PayloadReader, in txn: inout WriteTransaction
  ) throws {
    guard let digest = fields.bytes(3), digest.count == 32 else {
      throw StoreError.malformedPayload("a clientTokenCreated record without a 32-byte digest")
    }
    guard try fields.requiredString(2) == ClientToken.id(ofDigest: digest) else {
      throw RecordRefusal(reason: "the token's id is not the start of its digest")
    }
    guard try !txn.contains(digest, in: tokens) else {
      throw RecordRefusal(reason: "the token \(ClientToken.id(ofDigest: digest)) exists already")
    }
    var value: [UInt8] = []
    RecordCodec.appendBigEndian(header.position.rawValue, to: &value)
    value.append(contentsOf: Array(copying: payload))
    try txn.put(value, forKey: digest, in: tokens)
  }

  /// Removes a revoked token; refuses a revocation of a token the app does not hold.
  func applyTokenRevoked(_ fields: PayloadReader, in txn: inout WriteTransaction) throws {
    let client = try fields.requiredString(1)
    let id = try fields.requiredString(2)
    let digest = try txn.withCursor(on: tokens) { cursor -> [UInt8]? in
      guard try cursor.first() else { return nil }
      var found: [UInt8]?
      _ = try cursor.scanForward { key, value in
        let token = try Self.decodeToken(Array(copying: value))
        guard token.client == client, token.id == id else { return .continue }
        found = Array(copying: key)
        return .stop
      }
      return found
    }
    guard let digest else { throw RecordRefusal(reason: "\(client) holds no token \(id)") }
    _ = try txn.delete(digest, in: tokens)
  }

  /// Every live token, in digest order.
  func tokens(in txn: borrowing ReadTransaction) throws -> [ClientToken] {
    var result: [ClientToken] = []
    try txn.withCursor(on: tokens) { cursor in
      guard try cursor.first() else { return }
      _ = try cursor.scanForward { _, value in
        result.append(try Self.decodeToken(Array(copying: value)))
        return .continue
      }
    }
    return result
  }

  /// Throws unless a session of `client` opened at `start` (the last decision made outside the app
  /// then) is still live in `txn`: ``AccessError/sessionTerminated(client:at:)`` once the app's
  /// access was changed from outside, ``AccessError/tokenRevoked(client:token:)`` once the token
  /// its caller presented (`token`, for a TCP caller) was revoked.
  func checkSession(
    _ client: String, start: LogPosition, token: String?, in txn: borrowing ReadTransaction
  ) throws {
    let changed = try lastExternalChange(client, in: txn)
    if changed > start { throw StoreError.access(.sessionTerminated(client: client, at: changed)) }
    guard let token else { return }
    guard let prefix = FixedHex.bytes(token), prefix.count == 8 else {
      throw StoreError.access(.tokenRevoked(client: client, token: token))
    }
    let live = try txn.withCursor(on: tokens) { cursor -> Bool in
      guard try cursor.seek(atLeast: prefix) else { return false }
      guard try cursor.currentKey().starts(with: prefix) else { return false }
      return try Self.decodeToken(try cursor.currentValue()).client == client
    }
    if !live { throw StoreError.access(.tokenRevoked(client: client, token: token)) }
  }

  /// The live token whose secret has `digest`, or `nil`.
  func token(digest: [UInt8], in txn: borrowing ReadTransaction) throws -> ClientToken? {
    try txn.value(forKey: digest, in: tokens).map { try Self.decodeToken($0) }
  }

  static func decodeToken(_ bytes: [UInt8]) throws -> ClientToken {
    guard bytes.count >= 8 else { throw StoreError.malformedPayload("a stored token is truncated") }
    let fields = try PayloadReader(Payload(bytes: Array(bytes[8...])))
    return ClientToken(
      id: try fields.requiredString(2), client: try fields.requiredString(1), label: try fields.string(4),
      created: position(bytes.span.bytes))
  }
}
