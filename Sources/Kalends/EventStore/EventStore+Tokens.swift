internal import LMDB

extension EventStore {
  // MARK: App tokens (the store server's TCP callers)

  /// The work of `PrivacySettings.createToken`, checked for the person again.
  func createToken(for clientID: String, label: String? = nil) throws(StoreError) -> (
    ClientToken, secret: String
  ) {
    try requireOwner("create app tokens")
    try Self.checkClientID(clientID)
    if let label {
      try Self.checkName(label)
      guard label.utf8.count <= 100 else { throw .invalidInput("a token's label is at most 100 bytes") }
    }
    guard try client(withID: clientID) != nil else { throw .access(.clientNotRegistered(clientID)) }
    let secret = ClientToken.newSecret()
    let digest = ClientToken.digest(of: secret)
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, string: ClientToken.id(ofDigest: digest))
    payload.append(tag: 3, bytes: digest)
    if let label { payload.append(tag: 4, string: label) }
    let header = try store.append(RecordDraft(kind: .clientTokenCreated, principal: actor, payload: payload))
    let token = ClientToken(
      id: ClientToken.id(ofDigest: digest), client: clientID, label: label, created: header.position)
    return (token, secret)
  }

  /// The work of `PrivacySettings.revokeToken`, checked for the person again.
  @discardableResult
  func revokeToken(_ id: String, of clientID: String) throws(StoreError) -> LogRecordHeader {
    try requireOwner("revoke app tokens")
    try Self.checkClientID(clientID)
    let permissions = try permissions()
    let held = try StoreError.wrapping {
      try store.environment.read { txn in try permissions.liveToken(id, of: clientID, in: txn) != nil }
    }
    guard held else { throw .access(.tokenNotFound(client: clientID, token: id)) }
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, string: id)
    return try store.append(RecordDraft(kind: .clientTokenRevoked, principal: actor, payload: payload))
  }

  /// The work of `PrivacySettings.tokens`, checked for the person again.
  func tokens(of clientID: String? = nil) throws(StoreError) -> [ClientToken] {
    try requireOwner("list app tokens")
    let permissions = try permissions()
    return try StoreError.wrapping { try store.environment.read { txn in try permissions.tokens(in: txn) } }
      .filter { clientID == nil || $0.client == clientID }
      .sorted { ($0.client, $0.created) < ($1.client, $1.created) }
  }

  /// The live token whose secret is `secret`, looked up by the secret's digest in the stored state;
  /// `nil` when there is none (never created, or revoked). The owner's to call: the server runs as
  /// the owner.
  package func token(presenting secret: String) throws(StoreError) -> ClientToken? {
    try requireOwner("identify the callers of the store server")
    guard secret.hasPrefix(ClientToken.secretPrefix), secret.utf8.count <= 256 else { return nil }
    let digest = ClientToken.digest(of: secret)
    let permissions = try permissions()
    return try StoreError.wrapping {
      try store.environment.read { txn in try permissions.token(digest: digest, in: txn) }
    }
  }
}
