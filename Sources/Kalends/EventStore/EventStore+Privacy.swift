internal import LMDB

extension EventStore {
  // MARK: Clients and sessions

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

  // MARK: Statuses

  /// The status of `client` (this session's client when `nil`) for `service`. A client session
  /// may read its own statuses only; another app's are the owner's to read (the attempt is
  /// refused and recorded).
  public func authorizationStatus(
    for service: Service, client: String? = nil
  ) throws(StoreError) -> AuthorizationStatus {
    guard let id = client ?? sessionClient else { return .fullAccess }
    try Self.checkClientID(id)
    if let own = sessionClient, own != id { try requireOwner("read another app's access") }
    let permissions = try permissions()
    let seenByItself = sessionClient == id
    return try StoreError.wrapping {
      try store.environment.read { txn in
        let status = try permissions.state(id, service, in: txn).status
        // An app built before iOS 17 knows one kind of grant, `authorized` (raw value 3, today's
        // fullAccess): write-only access is what it sees as that (and its reads find nothing).
        guard seenByItself, status == .writeOnly, let client = try permissions.client(id, in: txn),
          client.sdk < Client.currentSDK
        else { return status }
        return .fullAccess
      }
    }
  }

  /// Asks for full access to `service`, as a client session. While undetermined the person is
  /// asked once through `prompter`; afterwards the stored decision is returned without asking
  /// (write-only access can be upgraded by one more prompt). Every request is recorded.
  ///
  /// An app built before iOS 17 (``Client/sdk``) has no such call for calendars and reminders
  /// (``AccessError/requestUnavailable(client:sdk:api:)``): it asks with
  /// ``requestAccess(to:prompter:)``; one built for iOS 5 has no request call at all.
  public func requestFullAccess(
    to service: Service, prompter: some ConsentPrompter
  ) throws(StoreError) -> AuthorizationStatus {
    try requestAccess(.full, to: service, prompter: prompter, api: .current)
  }

  /// Asks for write-only access to calendars, as a client session; see ``requestFullAccess(to:prompter:)``.
  public func requestWriteOnlyAccess(
    to service: Service = .calendars, prompter: some ConsentPrompter
  ) throws(StoreError) -> AuthorizationStatus {
    try requestAccess(.writeOnly, to: service, prompter: prompter, api: .current)
  }

  /// EventKit's `requestAccess(to:completion:)`, the call of apps built for iOS 6 to 16
  /// (``Client/sdk``), as iOS 17 answers it: for calendars it asks for write-only access (the
  /// write-only prompt) and reports a grant; for reminders (and contacts) full access. Returns
  /// whether access was granted — as the app sees it, `true` for write-only access too.
  ///
  /// - Throws: ``AccessError/requestUnavailable(client:sdk:api:)`` for an app built for iOS 17
  ///   (where the call is an error, and nothing is asked) or for iOS 5 (which had no request call).
  public func requestAccess(to service: Service, prompter: some ConsentPrompter) throws(StoreError) -> Bool {
    let level: AccessLevel = service == .calendars ? .writeOnly : .full
    let status = try requestAccess(level, to: service, prompter: prompter, api: .legacy)
    return status == .fullAccess || status == .writeOnly
  }

  /// Which request call an app makes: today's (`requestFullAccessToEvents`, …) or the one before
  /// iOS 17 (`requestAccess(to:)`).
  enum RequestAPI {
    case current
    case legacy
    /// No call: the store asks because the app used the service (docs/privacy.md).
    case implicit
  }

  /// Before a use of `service` by this session (a read when `reading`): asks the person through
  /// the session's prompter when iOS would ask by itself (``askImplicitly(_:reading:prompter:)``).
  func askImplicitly(_ service: Service, reading: Bool) throws(StoreError) {
    guard let prompter else { return }
    try askImplicitly(service, reading: reading, prompter: prompter)
  }

  /// Asks the person through `prompter` when this session's use of `service` (a read when
  /// `reading`) asks by itself on iOS — an app built for iOS 5 whose status is undetermined (for
  /// full access), or, on a read, an app built for iOS 17 with write-only calendar access whose
  /// one upgrade prompt was not shown yet — and records the request as implicit; otherwise does
  /// nothing. For callers that ask on a thread of their own before the use (the store server).
  package func askImplicitly(
    _ service: Service, reading: Bool, prompter: some ConsentPrompter
  ) throws(StoreError) {
    guard try wouldAskImplicitly(service, reading: reading) else { return }
    _ = try requestAccess(.full, to: service, prompter: prompter, api: .implicit)
  }

  /// Whether this session's use of `service` would ask the person by itself now
  /// (``askImplicitly(_:reading:prompter:)``).
  package func wouldAskImplicitly(_ service: Service, reading: Bool) throws(StoreError) -> Bool {
    guard let clientID = sessionClient else { return false }
    let permissions = try permissions()
    let (client, state) = try StoreError.wrapping {
      try store.environment.read { txn in
        (try permissions.client(clientID, in: txn), try permissions.state(clientID, service, in: txn))
      }
    }
    guard let client else { return false }
    let first = client.sdk < 6 && state.status == .notDetermined
    // The upgrade prompt needs the full-access description; without it nothing is asked, and the
    // write-only app reads nothing, as before.
    let upgrade =
      reading && client.sdk >= Client.currentSDK && service == .calendars && state.isUpgrade(requesting: .full)
      && client.usageDescriptions[.calendarsFull] != nil
    return first || upgrade
  }

  /// Whether a request of this client session for `level` access to `service` would ask the
  /// person now: while undetermined, or once to upgrade write-only access to full access. Lets a
  /// caller that has no way to ask return the stored decision instead of failing.
  public func requestWouldPrompt(_ level: AccessLevel, to service: Service) throws(StoreError) -> Bool {
    guard let clientID = sessionClient else { return false }
    let permissions = try permissions()
    let state = try StoreError.wrapping {
      try store.environment.read { txn in try permissions.state(clientID, service, in: txn) }
    }
    return state.asks(requesting: level)
  }

  private func requestAccess(
    _ level: AccessLevel, to service: Service, prompter: some ConsentPrompter, api: RequestAPI
  ) throws(StoreError) -> AuthorizationStatus {
    guard let clientID = sessionClient else { throw .access(.ownerOnly("not request access: the owner has it")) }
    guard Client.Usage(service, level) != nil else { throw .access(.levelNotAvailable(service, level)) }
    let permissions = try permissions()
    let sessionStart = self.sessionStart
    let token = identification?.tokenID
    // Read what is decided; prompt outside any transaction; then record, re-checking the state.
    let (client, seen): (Client, PermissionState) = try StoreError.wrapping {
      try store.environment.read { txn in
        try permissions.checkSession(clientID, start: sessionStart, token: token, in: txn)
        guard let client = try permissions.client(clientID, in: txn) else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        return (client, try permissions.state(clientID, service, in: txn))
      }
    }
    try Self.checkAvailable(api, level, service, for: client)
    guard let usage = client.usage(for: service, level) else { throw .access(.levelNotAvailable(service, level)) }
    let isUpgrade = seen.isUpgrade(requesting: level)
    let asks = seen.asks(requesting: level)
    let description = client.usageDescriptions[usage]
    var answer: ConsentAnswer?
    var chosen: [ObjectID] = []
    var chosenCalendars: [ObjectID]?
    var timedOut = false
    var answerer: CallerEvidence?
    if asks, let description {
      let request = ConsentRequest(
        client: client, service: service, level: level, usageDescription: description, isUpgrade: isUpgrade)
      answer = prompter.answer(request)
      if answer == .limited && service == .contacts { chosen = prompter.chosenContacts(request) }
      if answer == .allow && service == .calendars && level == .full {
        chosenCalendars = prompter.chosenCalendars(request)
      }
      timedOut = answer == nil
      answerer = (prompter as? any AnswerWitness)?.answerer()
    }
    let book = try contactsBook()
    let actor = self.actor
    return try StoreError.wrapping {
      try store.write(caller: identifiedCaller) { txn, appender in
        appender.answerer = answerer
        let current = try permissions.state(clientID, service, in: txn)
        func requested(_ status: AuthorizationStatus, prompted: Bool, timedOut: Bool = false) throws {
          var payload = Payload()
          payload.append(tag: 1, string: clientID)
          payload.append(tag: 2, unsigned: UInt64(service.rawValue))
          payload.append(tag: 3, unsigned: UInt64(level.rawValue))
          payload.append(tag: 4, unsigned: UInt64(status.rawValue))
          payload.append(tag: 5, bool: prompted)
          if timedOut { payload.append(tag: 6, bool: true) }
          if api == .implicit { payload.append(tag: 7, bool: true) }
          let draft = RecordDraft(kind: .accessRequested, principal: actor, payload: payload)
          guard !prompted, !timedOut else {
            try appender.append(draft, in: &txn)
            return
          }
          // A request that asked nobody returns the decision that stands: counted like refusals,
          // so that an app asking in a loop adds at most two records a minute.
          try RequestTally.count(
            draft, client: clientID, service: service, level: level, status: status, implicit: api == .implicit,
            minute: RefusalTally.minute(of: appender.timestamp), evidence: identification, meta: store.meta, &txn,
            &appender)
        }
        // Someone decided meanwhile (another process, the person in settings): that decision stands.
        guard current == seen, asks else {
          try requested(current.status, prompted: false)
          return current.status
        }
        if timedOut {
          // Nobody answered: nothing is decided, and the app may ask again (TCC's promptTimeout).
          try requested(current.status, prompted: true, timedOut: true)
          return current.status
        }
        guard let answer else {
          // Without the description iOS denies the request; an upgrade request leaves write-only as it is.
          if isUpgrade {
            try requested(current.status, prompted: false)
            return current.status
          }
          try requested(.denied, prompted: false)
          try Self.appendDecision(clientID, service, .missingUsageDescription, current, &txn, &appender)
          return .denied
        }
        let decided: AuthorizationStatus
        switch answer {
        case .allow: decided = level == .full ? .fullAccess : .writeOnly
        case .writeOnly: decided = service == .calendars ? .writeOnly : .denied
        case .deny: decided = isUpgrade ? .writeOnly : .denied
        case .limited: decided = service == .contacts ? .limited : .denied
        }
        try requested(decided, prompted: true)
        try Self.appendDecision(
          clientID, service, isUpgrade ? .upgrade(decided) : .prompt(decided), current, &txn, &appender)
        // What the person chose at the prompt counts as far as it still exists: an app's request
        // does not fail for a contact or calendar removed while the prompt waited.
        if decided == .limited {
          let live = try chosen.filter { try book.isLive(.contact, $0, in: txn) }
          try Self.appendScopeChange(clientID, choosing: live, book: book, permissions: permissions, &txn, &appender)
        }
        if decided == .fullAccess, let chosenCalendars {
          let objects = try objects()
          let live = try chosenCalendars.filter { id in
            guard let stored = try objects.state(.calendar, id, in: txn), stored.isLive else { return false }
            return try ModelCodec.decodeCalendar(id: id, version: stored.version, stored.state).allowedEntityTypes
              .contains(.events)
          }
          try Self.appendCalendarScope(
            clientID, choosing: live, objects: objects, permissions: permissions, &txn, &appender)
        }
        return decided
      }
    }
    .throwingMissingDescription(client: clientID, usage: usage, when: asks && description == nil)
  }

  /// Throws ``AccessError/requestUnavailable(client:sdk:api:)`` when the system `client` was built
  /// for has no such call: nothing before iOS 6; `requestAccess(to:)` before iOS 17 and its new
  /// calls from iOS 17 on, for calendars and reminders (contacts kept one call throughout).
  static func checkAvailable(
    _ api: RequestAPI, _ level: AccessLevel, _ service: Service, for client: Client
  ) throws(StoreError) {
    let name: String
    switch (api, service, level) {
    case (.implicit, _, _): name = "a first use"
    case (.legacy, .contacts, _): name = "CNContactStore.requestAccess(for:)"
    case (.legacy, _, _): name = "requestAccess(to:)"
    case (.current, .contacts, _): name = "CNContactStore.requestAccess(for:)"
    case (.current, .calendars, .writeOnly): name = "requestWriteOnlyAccessToEvents"
    case (.current, .calendars, _): name = "requestFullAccessToEvents"
    case (.current, .reminders, _): name = "requestFullAccessToReminders"
    }
    let available: Bool
    if api == .implicit {
      available = true
    } else if client.sdk < 6 {
      available = false
    } else if service == .contacts {
      available = true
    } else {
      available = (api == .legacy) == (client.sdk < Client.currentSDK)
    }
    if !available { throw .access(.requestUnavailable(client: client.id, sdk: client.sdk, api: name)) }
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
    if service == .calendars && status == .fullAccess { return try setCalendarAccess(for: clientID, calendars: nil) }
    return try decide(clientID, service, settings(status, clientID, service))
  }

  /// The person's change to `status` in settings: none when the status is that already; refused
  /// while a policy restricts the service.
  private func settings(
    _ status: AuthorizationStatus, _ clientID: String, _ service: Service
  ) -> (PermissionState) throws(StoreError) -> PermissionChange? {
    { current throws(StoreError) in
      guard current.restrictions.isEmpty else {
        throw .access(.restrictedByPolicy(client: clientID, service: service))
      }
      return current.status == status ? nil : .settings(status)
    }
  }

  /// Restricts `service` for a client by the policy `policy`: it becomes `restricted` and stays so
  /// until that policy lifts its restriction (each policy's restriction is its own; the person
  /// cannot change it meanwhile). Nothing is written when `policy` already restricts it. Ends the
  /// client's open sessions.
  @discardableResult
  public func restrict(_ clientID: String, service: Service, policy: String) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("apply policies")
    do { try Principal.policy(policy).validate() } catch { throw .invalidInput("policy name: \(error)") }
    return try decide(clientID, service) { current in
      current.restrictions.contains(policy) ? nil : .restrict(policy: policy)
    }
  }

  /// Lifts the restriction `policy` set: the status returns to the person's decision, or stays
  /// `restricted` while another policy restricts it too. Only the policy that restricted lifts.
  @discardableResult
  public func liftRestriction(
    _ clientID: String, service: Service, policy: String
  ) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("apply policies")
    return try decide(clientID, service) { current throws(StoreError) in
      guard current.restrictions.contains(policy) else {
        if current.restrictions.isEmpty { throw .access(.notRestricted(client: clientID, service: service)) }
        throw .access(
          .restrictedByOtherPolicies(client: clientID, service: service, policy: policy, by: current.restrictions))
      }
      return .lift(policy: policy)
    }
  }

  /// Clears the person's decision for one client (or every client) and one service (or all), like
  /// `tccutil reset`, in one transaction: the status returns to `notDetermined`, or stays
  /// `restricted` while a policy restricts it (a reset never lifts a policy). Ends the sessions of
  /// every client it changes. Returns how many statuses it changed.
  @discardableResult
  public func resetAccess(client clientID: String? = nil, service: Service? = nil) throws(StoreError) -> Int {
    try requireOwner("reset access")
    let permissions = try permissions()
    let ids: [String]
    if let clientID {
      try Self.checkClientID(clientID)
      ids = [clientID]
    } else {
      ids = try clients().map(\.id)
    }
    return try StoreError.wrapping {
      try store.write { txn, appender in
        var changed = 0
        for id in ids {
          guard try permissions.client(id, in: txn) != nil else { throw StoreError.access(.clientNotRegistered(id)) }
          for each in service.map({ [$0] }) ?? Service.allCases {
            let current = try permissions.state(id, each, in: txn)
            guard current.underlying != .notDetermined || current.upgradeAsked else { continue }
            try Self.appendDecision(id, each, .reset, current, &txn, &appender)
            changed += 1
          }
        }
        return changed
      }
    }
  }

  // MARK: Limited access

  /// Gives `clientID` limited access to contacts — the contacts `contacts`, and those it creates —
  /// as the person does in settings (iOS 18's "Limited Access"), in one transaction: the decision
  /// when the status was another, and the change of the chosen contacts (`accessScopeChanged`)
  /// when they differ. Refused while a policy restricts contacts. Ends the client's open sessions
  /// when the status changes.
  ///
  /// - Throws: ``ContactError/contactNotFound(_:)`` for a contact that does not exist.
  @discardableResult
  public func setLimitedAccess(for clientID: String, contacts: [ObjectID]) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("change access in settings")
    let permissions = try permissions()
    let book = try contactsBook()
    return try decide(clientID, .contacts, settings(.limited, clientID, .contacts)) { txn, appender in
      try Self.appendScopeChange(clientID, choosing: contacts, book: book, permissions: permissions, &txn, &appender)
    }
  }

  /// Gives `clientID` full access to the calendars `calendars` only (`nil`: to every calendar), as
  /// the person does in settings, in one transaction: the decision when the status was another,
  /// and the change of the chosen calendars (`accessScopeChanged`) when they differ. The app sees,
  /// queries, writes and hears of events in those calendars only, and in the calendars it creates.
  /// Refused while a policy restricts calendars. Ends the client's open sessions when the status
  /// changes.
  ///
  /// - Throws: ``CalendarError/calendarNotFound(_:)`` for a calendar that does not exist or holds
  ///   no events.
  @discardableResult
  public func setCalendarAccess(for clientID: String, calendars: [ObjectID]?) throws(StoreError) -> AuthorizationStatus
  {
    try requireOwner("change access in settings")
    let permissions = try permissions()
    let objects = try objects()
    return try decide(clientID, .calendars, settings(.fullAccess, clientID, .calendars)) { txn, appender in
      try Self.appendCalendarScope(
        clientID, choosing: calendars, objects: objects, permissions: permissions, &txn, &appender)
    }
  }

  /// The calendars `clientID`'s full access is limited to (those the person chose and those it
  /// created), live ones only, in identifier order; `nil` when it is not limited. The owner's to
  /// read.
  public func chosenCalendars(for clientID: String) throws(StoreError) -> [ObjectID]? {
    try requireOwner("read another app's access")
    let permissions = try permissions()
    let objects = try objects()
    return try StoreError.wrapping {
      try store.environment.read { txn in
        guard try permissions.isScoped(clientID, .calendars, in: txn) else { return nil }
        return try permissions.chosen(clientID, .calendars, in: txn).filter { id in
          try objects.state(.calendar, id, in: txn)?.isLive == true
        }.sorted()
      }
    }
  }

  /// Appends the `accessScopeChanged` record that limits `clientID` to the calendars `calendars`
  /// (or, with `nil`, lifts the limit); nothing when that is so already. Every calendar must hold
  /// events.
  static func appendCalendarScope(
    _ clientID: String, choosing calendars: [ObjectID]?, objects: ObjectProjection, permissions: PermissionProjection,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    let (scoped, current) = try txn.reading { txn in
      (try permissions.isScoped(clientID, .calendars, in: txn), try permissions.chosen(clientID, .calendars, in: txn))
    }
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, unsigned: UInt64(Service.calendars.rawValue))
    guard let calendars else {
      guard scoped else { return }
      payload.append(tag: 5, bool: false)
      try appender.append(RecordDraft(kind: .accessScopeChanged, principal: .person, payload: payload), in: &txn)
      return
    }
    let wanted = Set(calendars)
    for id in wanted {
      guard let stored = try objects.state(.calendar, id, in: txn), stored.isLive,
        try ModelCodec.decodeCalendar(id: id, version: stored.version, stored.state).allowedEntityTypes.contains(
          .events)
      else { throw StoreError.calendar(.calendarNotFound(id)) }
    }
    let added = wanted.subtracting(current).sorted()
    let removed = current.subtracting(wanted).sorted()
    guard !added.isEmpty || !removed.isEmpty || !scoped else { return }
    for id in added { payload.append(tag: 3, id: id) }
    for id in removed { payload.append(tag: 4, id: id) }
    payload.append(tag: 5, bool: true)
    try appender.append(RecordDraft(kind: .accessScopeChanged, principal: .person, payload: payload), in: &txn)
  }

  /// The contacts the person chose for `clientID`'s limited access (the contacts it created aside),
  /// live ones only, in identifier order. The owner's to read.
  public func chosenContacts(for clientID: String) throws(StoreError) -> [ObjectID] {
    try requireOwner("read another app's access")
    let permissions = try permissions()
    let book = try contactsBook()
    return try StoreError.wrapping {
      try store.environment.read { txn in
        try permissions.chosen(clientID, .contacts, in: txn).filter { try book.isLive(.contact, $0, in: txn) }.sorted()
      }
    }
  }

  /// Appends the `accessScopeChanged` record that makes `contacts` the ones chosen for
  /// `clientID` (nothing when they already are). Every contact must exist.
  static func appendScopeChange(
    _ clientID: String, choosing contacts: [ObjectID], book: ContactsProjection, permissions: PermissionProjection,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws {
    let wanted = Set(contacts)
    for id in wanted where try !book.isLive(.contact, id, in: txn) { throw StoreError.contact(.contactNotFound(id)) }
    let current = try txn.reading { try permissions.chosen(clientID, .contacts, in: $0) }
    let added = wanted.subtracting(current).sorted()
    let removed = current.subtracting(wanted).sorted()
    guard !added.isEmpty || !removed.isEmpty else { return }
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, unsigned: UInt64(Service.contacts.rawValue))
    for id in added { payload.append(tag: 3, id: id) }
    for id in removed { payload.append(tag: 4, id: id) }
    try appender.append(RecordDraft(kind: .accessScopeChanged, principal: .person, payload: payload), in: &txn)
  }

  // MARK: Plumbing

  /// Records the change `change` gives for a registered client's current state (nothing when it
  /// gives `nil`), then what `scope` appends (the person's choice of contacts or calendars) in the
  /// same transaction, and returns the status after the change.
  private func decide(
    _ clientID: String, _ service: Service, _ change: (PermissionState) throws(StoreError) -> PermissionChange?,
    then scope: ((inout WriteTransaction, inout LogAppender) throws -> Void)? = nil
  ) throws(StoreError) -> AuthorizationStatus {
    try Self.checkClientID(clientID)
    let permissions = try permissions()
    return try StoreError.wrapping {
      try store.write { txn, appender in
        guard try permissions.client(clientID, in: txn) != nil else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        let current = try permissions.state(clientID, service, in: txn)
        let status =
          try change(current).map { try Self.appendDecision(clientID, service, $0, current, &txn, &appender) }
          ?? current.status
        try scope?(&txn, &appender)
        return status
      }
    }
  }

  /// Appends the `accessDecided` record of `change` to `current` (by the principal the change
  /// belongs to, with the status the rules give) and returns that status.
  @discardableResult
  static func appendDecision(
    _ clientID: String, _ service: Service, _ change: PermissionChange, _ current: PermissionState,
    _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> AuthorizationStatus {
    let next: PermissionState
    do {
      next = try change.applied(to: current, service: service, at: appender.head.position.next)
    } catch {
      throw StoreError.access(.recordRefused(error.reason))
    }
    var payload = Payload()
    payload.append(tag: 1, string: clientID)
    payload.append(tag: 2, unsigned: UInt64(service.rawValue))
    payload.append(tag: 3, unsigned: UInt64(next.status.rawValue))
    payload.append(tag: 4, unsigned: UInt64(current.status.rawValue))
    payload.append(tag: 5, unsigned: UInt64(change.reason.rawValue))
    if case .lift = change { payload.append(tag: 6, bool: true) }
    try appender.append(RecordDraft(kind: .accessDecided, principal: change.principal, payload: payload), in: &txn)
    return next.status
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
