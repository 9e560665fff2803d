internal import LMDB

/// Apps: their registration as the person approves it, and the sessions a store gives them.
extension EventStore {

  /// Registers a client, or changes its name and usage descriptions (one `clientRegistered`
  /// record). Only the owner registers clients.
  @discardableResult
  public func register(_ client: Client) throws(StoreError) -> Client {
    try requireOwner("register clients")
    try Self.checkClientID(client.id)
    try Self.checkName(client.name)
    var payload = Payload()
    payload.append(tag: 1, string: client.id)
    payload.append(tag: 2, string: client.name)
    for usage in Client.Usage.allCases {
      // An empty usage description explains nothing: it is no description.
      if let text = client.usageDescriptions[usage], !text.isEmpty {
        try Self.checkText(text, field: "the \(usage) usage description")
        payload.append(tag: usage.rawValue, string: text)
      }
    }
    guard (Client.oldestSDK...99).contains(client.sdk) else {
      throw .invalidInput(
        "an app is built for iOS \(Client.oldestSDK) or later (--sdk \(Client.oldestSDK)…\(Client.currentSDK)), not \(client.sdk)"
      )
    }
    // Today's system is written as no field: a registration reads the same as before the field.
    if client.sdk < Client.currentSDK { payload.append(tag: 10, unsigned: UInt64(client.sdk)) }
    if let requirement = client.requirement {
      try requirement.validate()
      if let executable = requirement.executable { payload.append(tag: 7, string: executable) }
      if let digest = requirement.executableSHA256 { payload.append(tag: 8, bytes: digest) }
      if let app = requirement.flatpakApp { payload.append(tag: 9, string: app) }
    }
    let permissions = try permissions()
    let draft = RecordDraft(kind: .clientRegistered, principal: actor, payload: payload)
    let header = try StoreError.wrapping {
      try store.write(caller: identifiedCaller) { txn, appender in
        // Checked in the registration's transaction against what is stored: two apps on one
        // executable (or one Flatpak id) would both match its processes, which then are neither.
        if let requirement = client.requirement {
          for other in try txn.reading({ try permissions.allClients(in: $0) }) where other.id != client.id {
            if let executable = requirement.executable, other.requirement?.executable == executable {
              throw StoreError.access(.requirementHeld(client: client.id, requirement: executable, holder: other.id))
            }
            if let app = requirement.flatpakApp, other.requirement?.flatpakApp == app {
              throw StoreError.access(
                .requirementHeld(client: client.id, requirement: "the Flatpak app \(app)", holder: other.id))
            }
          }
        }
        return try appender.append(draft, in: &txn)
      }
    }
    var saved = client
    saved.sdk = min(client.sdk, Client.currentSDK)
    saved.usageDescriptions = client.usageDescriptions.filter { !$0.value.isEmpty }
    saved.version = header.position
    return saved
  }

  /// Throws ``AccessError/invalidClientID(_:)`` unless `id` is a bundle identifier (ASCII letters,
  /// digits, `-` and `.`, 1–255 bytes).
  static func checkClientID(_ id: String) throws(StoreError) {
    do { try Principal.client(id).validate() } catch { throw .access(.invalidClientID(id)) }
  }

  /// A name the person reads: not empty, one line, no control characters and no characters that
  /// reorder or hide text (bidirectional overrides and isolates, zero-width characters).
  static func checkName(_ name: String) throws(StoreError) {
    try checkText(name, field: "the client's name")
    if name.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
      throw .calendar(.invalidText(field: "the client's name", reason: "is empty"))
    }
    let hidden: [ClosedRange<UInt32>] = [
      0x0000...0x001F, 0x007F...0x009F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF...0xFEFF,
    ]
    if let scalar = name.unicodeScalars.first(where: { scalar in hidden.contains { $0.contains(scalar.value) } }) {
      throw .calendar(
        .invalidText(
          field: "the client's name",
          reason: "holds U+\(String(scalar.value, radix: 16, uppercase: true)), which hides or reorders text"))
    }
  }

  /// The registered client `id`, or `nil`. A client session may read its own registration only;
  /// another app's is the owner's to read (the attempt is refused and recorded).
  public func client(withID id: String) throws(StoreError) -> Client? {
    try Self.checkClientID(id)
    if let own = sessionClient, own != id { try requireOwner("read another app's registration") }
    let permissions = try permissions()
    return try StoreError.wrapping { try store.environment.read { txn in try permissions.client(id, in: txn) } }
  }

  /// Every registered client, by identifier; the owner's to read (a client session's attempt is
  /// refused and recorded).
  public func clients() throws(StoreError) -> [Client] {
    try requireOwner("list the registered apps")
    let permissions = try permissions()
    return try StoreError.wrapping { try store.environment.read { txn in try permissions.allClients(in: txn) } }
  }

  /// The store as used by the app `clientID`: every call checks its access first, and the session
  /// ends (``AccessError/sessionTerminated(client:at:)``) when its access is changed from outside
  /// the app (settings, a policy, a reset).
  public func session(for clientID: String) throws(StoreError) -> EventStore {
    try session(for: clientID, prompter: nil)
  }

  /// ``session(for:)``, with `prompter` to ask the person when the app's first use of a service
  /// asks by itself, as iOS does (docs/privacy.md): an app built for iOS 5, which has no request
  /// call, is asked for on its first use of each service; an app with write-only calendar access
  /// is asked once for full access on its first read (denied: never again). Without a prompter
  /// (`nil`) such a use is refused as the status says.
  public func session(for clientID: String, prompter: (any ConsentPrompter)?) throws(StoreError) -> EventStore {
    try requireOwner("open sessions for clients")
    try Self.checkClientID(clientID)
    let permissions = try permissions()
    let start: LogPosition = try StoreError.wrapping {
      try store.environment.read { txn in
        guard try permissions.client(clientID, in: txn) != nil else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        return try permissions.lastExternalChange(clientID, in: txn)
      }
    }
    return EventStore(store: store, client: clientID, sessionStart: start, prompter: prompter)
  }

  /// The store as used by the app `clientID` through the store server, which identified its
  /// process by `evidence`: ``session(for:)``, whose records also carry `evidence` (record format
  /// version 2), so that the log says how the app was identified. Refused
  /// (``AccessError/notIdentified(client:)``) unless `evidence` satisfies the app's stored
  /// ``CodeRequirement``, or names a live token of the app (a TCP caller's): the check is made
  /// against the stored state, not the caller's word.
  package func session(
    for clientID: String, identifiedBy evidence: CallerEvidence, prompter: (any ConsentPrompter)? = nil
  ) throws(StoreError) -> EventStore {
    let plain = try session(for: clientID)
    let permissions = try permissions()
    let identified = try StoreError.wrapping {
      try store.environment.read { txn in
        if let tokenID = evidence.tokenID { return try permissions.liveToken(tokenID, of: clientID, in: txn) != nil }
        return try permissions.client(clientID, in: txn)?.requirement?.isSatisfied(by: evidence) == true
      }
    }
    guard identified else { throw .access(.notIdentified(client: clientID)) }
    return EventStore(
      store: store, client: clientID, sessionStart: plain.sessionStart, identification: evidence,
      prompter: prompter)
  }
}
