internal import LMDB

/// The person's own decisions about apps, as in Settings: setting, restricting and resetting
/// access, and the calendars and contacts a limited app may see.
extension EventStore {
  /// The work of `PrivacySettings.setAccess`, checked for the person again.
  @discardableResult
  func setAccess(
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

  /// The work of `PrivacySettings.restrict`, checked for the person again.
  @discardableResult
  func restrict(_ clientID: String, service: Service, policy: String) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("apply policies")
    do { try Principal.policy(policy).validate() } catch { throw .invalidInput("policy name: \(error)") }
    return try decide(clientID, service) { current in
      current.restrictions.contains(policy) ? nil : .restrict(policy: policy)
    }
  }

  /// The work of `PrivacySettings.liftRestriction`, checked for the person again.
  @discardableResult
  func liftRestriction(
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

  /// The work of `PrivacySettings.resetAccess`, checked for the person again.
  @discardableResult
  func resetAccess(client clientID: String? = nil, service: Service? = nil) throws(StoreError) -> Int {
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

  /// The work of `PrivacySettings.setLimitedAccess`, checked for the person again.
  @discardableResult
  func setLimitedAccess(for clientID: String, contacts: [ObjectID]) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("change access in settings")
    let permissions = try permissions()
    let book = try contactsBook()
    return try decide(clientID, .contacts, settings(.limited, clientID, .contacts)) { txn, appender in
      try Self.appendScopeChange(clientID, choosing: contacts, book: book, permissions: permissions, &txn, &appender)
    }
  }

  /// The work of `PrivacySettings.setCalendarAccess`, checked for the person again.
  @discardableResult
  func setCalendarAccess(for clientID: String, calendars: [ObjectID]?) throws(StoreError) -> AuthorizationStatus {
    try requireOwner("change access in settings")
    let permissions = try permissions()
    let objects = try objects()
    return try decide(clientID, .calendars, settings(.fullAccess, clientID, .calendars)) { txn, appender in
      try Self.appendCalendarScope(
        clientID, choosing: calendars, objects: objects, permissions: permissions, &txn, &appender)
    }
  }

  /// The work of `PrivacySettings.chosenCalendars`, checked for the person again.
  func chosenCalendars(for clientID: String) throws(StoreError) -> [ObjectID]? {
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

  /// The work of `PrivacySettings.chosenContacts`, checked for the person again.
  func chosenContacts(for clientID: String) throws(StoreError) -> [ObjectID] {
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
}
