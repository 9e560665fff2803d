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
    guard let digest = try txn.reading({ try liveToken(id, of: client, in: $0) }) else {
      throw RecordRefusal(reason: "\(client) holds no token \(id)")
    }
    _ = try txn.delete(digest, in: tokens)
  }

  /// The key (the secret's digest) of `client`'s live token `id`, or `nil`: found by the id, the
  /// digest's first 8 bytes in lowercase hex, as a prefix of the keys.
  func liveToken(_ id: String, of client: String, in txn: borrowing ReadTransaction) throws -> [UInt8]? {
    guard let prefix = Hex.decode(id), prefix.count == 8, Hex.encode(prefix) == id else { return nil }
    return try txn.withCursor(on: tokens) { cursor -> [UInt8]? in
      guard try cursor.seek(atLeast: prefix) else { return nil }
      repeat {
        let key = try cursor.currentKey()
        guard key.starts(with: prefix) else { return nil }
        if try Self.decodeToken(try cursor.currentValue()).client == client { return key }
      } while try cursor.next()
      return nil
    }
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
    if try liveToken(token, of: client, in: txn) == nil {
      throw StoreError.access(.tokenRevoked(client: client, token: token))
    }
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
