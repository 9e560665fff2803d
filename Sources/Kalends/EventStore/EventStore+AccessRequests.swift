internal import LMDB

/// What an app asks and is told: its status for a service, its requests for access (asking the
/// person once), and the asks its first use makes.
extension EventStore {

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

  func requestAccess(
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
}
