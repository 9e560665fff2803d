internal import LMDB

extension EventStore {
  // MARK: Clients and sessions

  /// Registers a client, or changes its name and usage descriptions (one `clientRegistered`
  /// record). Only the owner registers clients.
  @discardableResult
  public func register(_ client: Client) throws(StoreError) -> Client {
    try requireOwner("register clients")
    do { try Principal.client(client.id).validate() } catch { throw .access(.invalidClientID(client.id)) }
    try Self.checkText(client.name, field: "the client's name")
    var payload = Payload()
    payload.append(tag: 1, string: client.id)
    payload.append(tag: 2, string: client.name)
    for usage in Client.Usage.allCases {
      if let text = client.usageDescriptions[usage] {
        try Self.checkText(text, field: "the \(usage) usage description")
        payload.append(tag: usage.rawValue, string: text)
      }
    }
    let header = try store.append(RecordDraft(kind: .clientRegistered, principal: actor, payload: payload))
    var saved = client
    saved.version = header.position
    return saved
  }

  /// The registered client `id`, or `nil`.
  public func client(withID id: String) throws(StoreError) -> Client? {
    let permissions = try permissions()
    return try StoreError.wrapping { try store.environment.read { txn in try permissions.client(id, in: txn) } }
  }

  /// Every registered client, by identifier.
  public func clients() throws(StoreError) -> [Client] {
    let permissions = try permissions()
    return try StoreError.wrapping { try store.environment.read { txn in try permissions.allClients(in: txn) } }
  }

  /// The store as used by the app `clientID`: every call checks its access first, and the session
  /// ends (``AccessError/sessionTerminated(client:at:)``) when its access is changed from outside
  /// the app (settings, a policy, a reset).
  public func session(for clientID: String) throws(StoreError) -> EventStore {
    try requireOwner("open sessions for clients")
    let permissions = try permissions()
    let start: LogPosition = try StoreError.wrapping {
      try store.environment.read { txn in
        guard try permissions.client(clientID, in: txn) != nil else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        return try permissions.lastExternalChange(clientID, in: txn)
      }
    }
    return EventStore(store: store, client: clientID, sessionStart: start)
  }

  // MARK: Statuses

  /// The status of `client` (this session's client when `nil`) for `service`.
  public func authorizationStatus(
    for service: Service, client: String? = nil
  ) throws(StoreError) -> AuthorizationStatus {
    guard let id = client ?? sessionClient else { return .fullAccess }
    let permissions = try permissions()
    return try StoreError.wrapping {
      try store.environment.read { txn in try permissions.state(id, service, in: txn).status }
    }
  }

  /// Asks for full access to `service`, as a client session. While undetermined the person is
  /// asked once through `prompter`; afterwards the stored decision is returned without asking
  /// (write-only access can be upgraded by one more prompt). Every request is recorded.
  public func requestFullAccess(
    to service: Service, prompter: some ConsentPrompter
  ) throws(StoreError) -> AuthorizationStatus {
    try requestAccess(.full, to: service, prompter: prompter)
  }

  /// Asks for write-only access to calendars, as a client session; see ``requestFullAccess(to:prompter:)``.
  public func requestWriteOnlyAccess(
    to service: Service = .calendars, prompter: some ConsentPrompter
  ) throws(StoreError) -> AuthorizationStatus {
    try requestAccess(.writeOnly, to: service, prompter: prompter)
  }

  private func requestAccess(
    _ level: AccessLevel, to service: Service, prompter: some ConsentPrompter
  ) throws(StoreError) -> AuthorizationStatus {
    guard let clientID = sessionClient else { throw .access(.ownerOnly("not request access: the owner has it")) }
    guard let usage = Client.Usage(service, level) else { throw .access(.levelNotAvailable(service, level)) }
    let permissions = try permissions()
    let sessionStart = self.sessionStart
    // Read what is decided; prompt outside any transaction; then record, re-checking the state.
    let (client, seen): (Client, PermissionState) = try StoreError.wrapping {
      try store.environment.read { txn in
        let changed = try permissions.lastExternalChange(clientID, in: txn)
        if changed > sessionStart { throw StoreError.access(.sessionTerminated(client: clientID, at: changed)) }
        guard let client = try permissions.client(clientID, in: txn) else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        return (client, try permissions.state(clientID, service, in: txn))
      }
    }
    let isUpgrade = seen.status == .writeOnly && level == .full && !seen.upgradeAsked
    let asks = seen.status == .notDetermined || isUpgrade
    let description = client.usageDescriptions[usage]
    var answer: ConsentAnswer?
    if asks, let description {
      answer = prompter.answer(
        ConsentRequest(
          client: client, service: service, level: level, usageDescription: description, isUpgrade: isUpgrade))
    }
    let actor = self.actor
    return try StoreError.wrapping {
      try store.write { txn, appender in
        let current = try permissions.state(clientID, service, in: txn)
        func requested(_ status: AuthorizationStatus, prompted: Bool) throws {
          var payload = Payload()
          payload.append(tag: 1, string: clientID)
          payload.append(tag: 2, unsigned: UInt64(service.rawValue))
          payload.append(tag: 3, unsigned: UInt64(level.rawValue))
          payload.append(tag: 4, unsigned: UInt64(status.rawValue))
          payload.append(tag: 5, bool: prompted)
          try appender.append(RecordDraft(kind: .accessRequested, principal: actor, payload: payload), in: &txn)
        }
        // Someone decided meanwhile (another process, the person in settings): that decision stands.
        guard current == seen, asks else {
          try requested(current.status, prompted: false)
          return current.status
        }
        guard let answer else {
          // Without the description iOS denies the request; an upgrade request leaves write-only as it is.
          if isUpgrade {
            try requested(current.status, prompted: false)
            return current.status
          }
          try requested(.denied, prompted: false)
          try Self.appendDecision(
            clientID, service, .denied, current.status, .missingUsageDescription, .system, &txn, &appender)
          return .denied
        }
        let decided: AuthorizationStatus
        switch answer {
        case .allow: decided = level == .full ? .fullAccess : .writeOnly
        case .writeOnly: decided = service == .calendars ? .writeOnly : .denied
        case .deny: decided = isUpgrade ? .writeOnly : .denied
        }
        try requested(decided, prompted: true)
        try Self.appendDecision(
          clientID, service, decided, current.status, isUpgrade ? .upgrade : .userPrompt, .person, &txn, &appender)
        return decided
      }
    }
    .throwingMissingDescription(client: clientID, usage: usage, when: asks && description == nil)
  }

  /// Sets a client's status as the person does in settings: full access, write-only (calendars)
  /// or denied. Refused while a policy restricts it. Ends the client's open sessions.
  @discardableResult
  public func setAccess(
    _ status: AuthorizationStatus, for clientID: String, service: Service
  ) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("change access in settings")
    guard [.fullAccess, .writeOnly, .denied].contains(status) else {
      throw .access(.levelNotAvailable(service, .full))
    }
    if status == .writeOnly && service != .calendars { throw .access(.levelNotAvailable(service, .writeOnly)) }
    return try decide(clientID, service, reason: .userSettings, by: actor) { current throws(StoreError) in
      guard current.status != .restricted else {
        throw .access(.restrictedByPolicy(client: clientID, service: service))
      }
      return status
    }
  }

  /// Restricts `service` for a client by the policy `policy`: it becomes `restricted` and the person
  /// cannot change it until the policy is lifted. Ends the client's open sessions.
  @discardableResult
  public func restrict(_ clientID: String, service: Service, policy: String) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("apply policies")
    return try decide(clientID, service, reason: .policy, by: .policy(policy)) { _ in .restricted }
  }

  /// Lifts a policy's restriction: the status returns to what the person had decided before it.
  @discardableResult
  public func liftRestriction(
    _ clientID: String, service: Service, policy: String
  ) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("apply policies")
    return try decide(clientID, service, reason: .policy, by: .policy(policy)) { current throws(StoreError) in
      guard current.status == .restricted else { throw .access(.notRestricted(client: clientID, service: service)) }
      return current.underlying
    }
  }

  /// Returns one client (or every client) to `notDetermined` for one service (or all), like
  /// `tccutil reset`, in one transaction. Ends the sessions of every client it changes. Returns how
  /// many statuses changed.
  @discardableResult
  public func resetAccess(client clientID: String? = nil, service: Service? = nil) throws(StoreError) -> Int {
    try requireOwner("reset access")
    let permissions = try permissions()
    let actor = self.actor
    let ids: [String]
    if let clientID { ids = [clientID] } else { ids = try clients().map(\.id) }
    return try StoreError.wrapping {
      try store.write { txn, appender in
        var changed = 0
        for id in ids {
          guard try permissions.client(id, in: txn) != nil else { throw StoreError.access(.clientNotRegistered(id)) }
          for each in service.map({ [$0] }) ?? Service.allCases {
            let current = try permissions.state(id, each, in: txn)
            guard current.status != .notDetermined || current.upgradeAsked else { continue }
            try Self.appendDecision(id, each, .notDetermined, current.status, .reset, actor, &txn, &appender)
            changed += 1
          }
        }
        return changed
      }
    }
  }

  // MARK: Plumbing

  private func requireOwner(_ what: String) throws(StoreError) {
    if sessionClient != nil { throw .access(.ownerOnly(what)) }
  }

  /// Records a decision about a registered client, computed from its current state by `status`;
  /// nothing is written when the status stays the same.
  private func decide(
    _ clientID: String, _ service: Service, reason: DecisionReason, by principal: Principal,
    _ status: (PermissionState) throws(StoreError) -> AuthorizationStatus
  ) throws(StoreError) -> AuthorizationStatus {
    let permissions = try permissions()
    return try StoreError.wrapping {
      try store.write { txn, appender in
        guard try permissions.client(clientID, in: txn) != nil else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        let current = try permissions.state(clientID, service, in: txn)
        let next = try status(current)
        guard next != current.status else { return next }
        try Self.appendDecision(clientID, service, next, current.status, reason, principal, &txn, &appender)
        return next
      }
    }
  }

  static func appendDecision(
    _ clientID: String, _ service: Service, _ status: AuthorizationStatus, _ previous: AuthorizationStatus,
    _ reason: DecisionReason, _ principal: Principal, _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, unsigned: UInt64(service.rawValue))
    payload.append(tag: 3, unsigned: UInt64(status.rawValue))
    payload.append(tag: 4, unsigned: UInt64(previous.rawValue))
    payload.append(tag: 5, unsigned: UInt64(reason.rawValue))
    try appender.append(RecordDraft(kind: .accessDecided, principal: principal, payload: payload), in: &txn)
  }
}

extension AuthorizationStatus {
  /// `self`, or — when the request lacked its usage description — the error saying so (the denial
  /// is recorded first).
  fileprivate func throwingMissingDescription(
    client: String, usage: Client.Usage, when missing: Bool
  ) throws(StoreError) -> AuthorizationStatus {
    if missing { throw .access(.missingUsageDescription(client: client, usage: usage.description)) }
    return self
  }
}
