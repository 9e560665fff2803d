internal import LMDB

extension EventStore {
  /// The most live push registrations one app holds, and one token of it (a device: DAVx⁵
  /// registers each collection it syncs); a registration of the same push resource for the same
  /// collection replaces the earlier one and is not counted twice.
  public static let maximumPushRegistrationsPerApp = 250
  public static let maximumPushRegistrationsPerToken = 100
  /// How long a registration lasts when the app asks for no expiry, and the longest it is granted
  /// (WebDAV-Push lets the server shorten it; apps renew theirs).
  public static let defaultPushLifetime: Int64 = 3 * 24 * 3600 * 1_000_000
  public static let maximumPushLifetime: Int64 = 7 * 24 * 3600 * 1_000_000

  /// Registers this app for push notices of `collection` — a calendar, a task list or an address
  /// book it sees — to `subscription`, until `expires` (bounded to ``maximumPushLifetime`` from
  /// now; ``defaultPushLifetime`` when `nil`), and returns the registration: a
  /// ``RecordKind/pushRegistered`` record by the app, the subscription sealed in it.
  ///
  /// Refused, and the refusal recorded: a collection the app does not see (as if it did not exist:
  /// a calendar not chosen for it, another app's address book), and an app that may not read the
  /// collection's service (write-only, denied). Refused as invalid input: the person's session
  /// (pushes are an app's), a subscription that is not a P-256 key and a 16-byte secret, an app
  /// holding ``maximumPushRegistrationsPerApp`` already, or registering with a token that holds
  /// ``maximumPushRegistrationsPerToken``.
  package func registerPush(
    collection: ObjectID, subscription: PushSubscription, host: String, expires: Timestamp?,
    triggers: PushTriggers = .content
  ) throws(StoreError) -> PushRegistration {
    guard !triggers.isEmpty else { throw .invalidInput("a push registration is for content or property updates") }
    guard let client = sessionClient else {
      throw .invalidInput("push registrations are an app's: the person's session has none")
    }
    guard subscription.p256dh.count == 65, subscription.p256dh.first == 4, subscription.auth.count == 16 else {
      throw .invalidInput("the subscription's key is not a P-256 point or its secret is not 16 bytes")
    }
    // What the collection is, from the store's state (never asking the other service: an app
    // registering a calendar is not refused contacts), then whether this app sees it.
    let objects = try objects()
    let book = try contactsBook()
    let (isCalendar, isBook) = try read(records: false) { txn, _, _ in
      let isCalendar = try objects.state(.calendar, collection, in: txn)?.isLive == true
      return (isCalendar, try !isCalendar && book.container(collection, in: txn) != nil)
    }
    var service: Service = isBook ? .contacts : .calendars
    var seen = false
    if isCalendar, let calendar = try calendar(withID: collection) {
      service = calendar.allowedEntityTypes.contains(.events) ? .calendars : .reminders
      seen = true
    } else if isBook {
      seen = try contactStore.contactContainer(withID: collection) != nil
    }
    guard seen else {
      // Not seen: refused and recorded, as if it did not exist.
      let status = try authorizationStatus(for: service)
      let operation = "register for push notices of a collection it may not see"
      if let failure = recordRefusal(client, service, status, operation) {
        throw .access(
          .refusalNotRecorded(
            .accessDenied(client: client, service: service, status: status, operation: operation), reason: failure))
      }
      throw .access(.accessDenied(client: client, service: service, status: status, operation: operation))
    }
    let push = try store.projection(PushProjection.self)
    let secret = try store.pushSecret()
    let token = identification?.tokenID
    return try write(.read(service, "register for push notices")) { txn, appender, _ in
      let now = appender.timestamp
      let granted = Timestamp(
        rawValue: min(
          (expires ?? Timestamp(rawValue: now.rawValue + Self.defaultPushLifetime)).rawValue,
          now.rawValue + Self.maximumPushLifetime))
      guard granted > now else { throw StoreError.invalidInput("the registration would expire at once") }
      let held = try txn.reading { try push.registrations(ofClient: client, in: $0) }
      // The same push resource for the same collection: the new registration replaces it.
      var replaced: [ObjectID] = []
      for registration in held where registration.collection == collection {
        guard let (_, sealed) = try txn.reading({ try push.registration(registration.id, in: $0) }),
          let opened = Sodium.open(sealed, key: secret),
          try PushSubscription(PayloadReader(Payload(bytes: opened))).endpoint == subscription.endpoint
        else { continue }
        replaced.append(registration.id)
      }
      guard held.count - replaced.count < Self.maximumPushRegistrationsPerApp else {
        throw StoreError.invalidInput(
          "the app holds \(held.count) push registrations, the most one app may — unregister one first")
      }
      if let token {
        let ofToken = held.filter { $0.tokenID == token && !replaced.contains($0.id) }.count
        guard ofToken < Self.maximumPushRegistrationsPerToken else {
          throw StoreError.invalidInput(
            "the token holds \(ofToken) push registrations, the most one token may — unregister one first")
        }
      }
      for id in replaced {
        var payload = Payload()
        payload.append(tag: 1, id: id)
        payload.append(tag: 2, unsigned: UInt64(PushEnding.byApp.rawValue))
        try appender.append(
          RecordDraft(kind: .pushUnregistered, principal: .client(client), payload: payload), in: &txn)
      }
      let id = ObjectID.random()
      var payload = Payload()
      payload.append(tag: 1, id: id)
      payload.append(tag: 2, string: client)
      payload.append(tag: 3, unsigned: UInt64(service.rawValue))
      payload.append(tag: 4, id: collection)
      payload.append(tag: 5, signed: granted.rawValue)
      payload.append(tag: 6, string: host)
      payload.append(tag: 7, bytes: Sodium.seal(subscription.encoded, key: secret))
      if let token { payload.append(tag: 8, string: token) }
      if triggers != .content { payload.append(tag: 9, unsigned: UInt64(triggers.rawValue)) }
      let header = try appender.append(
        RecordDraft(kind: .pushRegistered, principal: .client(client), payload: payload), in: &txn)
      return PushRegistration(
        id: id, client: client, collection: collection, service: service, host: host, expires: granted,
        created: header.timestamp, version: header.position, triggers: triggers, tokenID: token)
    }
  }

  /// Ends the registration `id`: this app's own (an app may end no other's: the same answer as
  /// for one that does not exist), or any, for the person. Returns whether it was live.
  @discardableResult
  package func unregisterPush(_ id: ObjectID) throws(StoreError) -> Bool {
    let push = try store.projection(PushProjection.self)
    let client = sessionClient
    return try write(nil) { txn, appender, _ in
      guard let (registration, _) = try txn.reading({ try push.registration(id, in: $0) }),
        client == nil || registration.client == client
      else { return false }
      var payload = Payload()
      payload.append(tag: 1, id: id)
      payload.append(tag: 2, unsigned: UInt64((client == nil ? PushEnding.byPerson : .byApp).rawValue))
      try appender.append(
        RecordDraft(kind: .pushUnregistered, principal: client.map { .client($0) } ?? .person, payload: payload),
        in: &txn)
      return true
    }
  }

  /// The live push registrations: this app's own, or every app's for the person; oldest first.
  /// Expired ones are listed until something ends them: their `expires` says so.
  public func pushRegistrations() throws(StoreError) -> [PushRegistration] {
    let push = try store.projection(PushProjection.self)
    let client = sessionClient
    return try read(records: false) { txn, _, _ in try push.registrations(ofClient: client, in: txn) }
  }

  /// The topic of `collection` for the app `client` (WebDAV-Push's `topic`): 22 base64url
  /// characters of a keyed hash of both under the store's push secret — unguessable, and different
  /// for each app, so two apps cannot tell they follow the same collection and an app learns no
  /// topic of a collection it does not see.
  package func pushTopic(of collection: ObjectID, forClient client: String) throws(StoreError) -> String {
    let secret = try store.pushSecret()
    let digest = Sodium.keyedHash(
      Array("topic".utf8) + [0] + Array(client.utf8) + [0] + collection.bytes, key: secret, length: 16)
    return AppPositions.base64URL(digest)
  }
}

extension EventStore {
  /// Records this app's push registration for a collection of `service` refused for `reason` (a
  /// push resource the store will not post to) as a refused attempt.
  package func recordPushRefusal(_ reason: String, service: Service) throws(StoreError) {
    guard let client = sessionClient else { return }
    let status = try authorizationStatus(for: service)
    if let failure = recordRefusal(client, service, status, "register for push notices: " + reason) {
      throw .invalidInput("the refusal could not be recorded: \(failure)")
    }
  }
}

extension EventStore {
  /// The subscription of the live registration `id`, opened from its seal: what a delivery
  /// encrypts to and posts to. The person's only (the store server's delivery).
  package func pushSubscription(of id: ObjectID) throws(StoreError) -> PushSubscription? {
    try requireOwner("deliver push notices")
    let push = try store.projection(PushProjection.self)
    let secret = try store.pushSecret()
    return try read(records: false) { txn, _, _ in
      guard let (_, sealed) = try push.registration(id, in: txn), let opened = Sodium.open(sealed, key: secret) else {
        return nil
      }
      return try PushSubscription(PayloadReader(Payload(bytes: opened)))
    }
  }

  /// Ends the registration `id` because its push service said the subscription is gone (404, 410):
  /// a ``RecordKind/pushUnregistered`` by the system. The person's only (the store server's
  /// delivery).
  package func endGonePushRegistration(_ id: ObjectID) throws(StoreError) {
    try requireOwner("deliver push notices")
    let push = try store.projection(PushProjection.self)
    try write(nil) { txn, appender, _ in
      guard try txn.reading({ try push.registration(id, in: $0) }) != nil else { return }
      var payload = Payload()
      payload.append(tag: 1, id: id)
      payload.append(tag: 2, unsigned: UInt64(PushEnding.gone.rawValue))
      try appender.append(RecordDraft(kind: .pushUnregistered, principal: .system, payload: payload), in: &txn)
    }
  }
}

extension EventStore {
  /// What the audit calls a push notice: the operation of the uses ``recordPushNotices(_:)`` counts.
  package static let pushNoticeOperation = "be told of changes by push"

  /// Counts, for each app and collection in `notices`, that the store's push delivery is telling
  /// the app of a change to the collection: a use of the collection's service by the app
  /// (``UseTally``, per app and minute, naming the collection), so that the audit says which app
  /// was told of how many changes to which collection. What the log does not hold yet is appended
  /// in one durable write before this returns, so before the messages leave. An app that may no
  /// longer read the service is left out (its registrations end with the decision). The person's
  /// only (the store server's delivery).
  package func recordPushNotices(
    _ notices: [(client: String, service: Service, collection: ObjectID)]
  ) throws(StoreError) {
    try requireOwner("deliver push notices")
    guard !notices.isEmpty else { return }
    let permissions = try permissions()
    let batch = try read(records: false) { txn, _, _ in
      var entries: [String: [ReadUses.Entry]] = [:]
      for notice in notices {
        let state = try permissions.state(notice.client, notice.service, in: txn)
        guard state.status == .fullAccess || (state.status == .limited && notice.service == .contacts) else {
          continue
        }
        var list = entries[notice.client, default: []]
        if let index = list.firstIndex(where: { $0.service == notice.service }) {
          list[index].objects.insert(notice.collection)
        } else {
          list.append(
            ReadUses.Entry(
              service: notice.service, operation: Self.pushNoticeOperation, state: state,
              objects: [notice.collection]))
        }
        entries[notice.client] = list
      }
      return entries.sorted { $0.key < $1.key }.map { (client: $0.key, entries: $0.value) }
    }
    try store.recordUses(batch, identifiedBy: nil)
  }
}

extension EventStore {
  /// For each app of `clients`, the view of a collection its stamps share with other apps', for
  /// the push delivery to read one stamp for all of them: `calendars` for an app with full access
  /// to calendars not limited to chosen ones (with its status for reminders), `contacts` for one
  /// with full access to contacts; absent when its view is its own — chosen calendars, limited
  /// contacts, write-only, no access — and its stamps are read through its own session. What a
  /// session of such an app sees of a collection depends on nothing else (``calendarStampParts(inCalendar:recordingUse:)``).
  /// The person's only (the store server's delivery).
  package func pushSharedViews(
    of clients: Set<String>
  ) throws(StoreError) -> [String: (calendars: String?, contacts: String?)] {
    try requireOwner("deliver push notices")
    let permissions = try permissions()
    return try read(records: false) { txn, _, _ in
      var views: [String: (calendars: String?, contacts: String?)] = [:]
      for client in clients {
        var calendars: String?
        if try permissions.state(client, .calendars, in: txn).status == .fullAccess,
          try permissions.calendarScope(client, in: txn) == nil
        {
          calendars = "calendars \(try permissions.state(client, .reminders, in: txn).status.rawValue)"
        }
        let contacts = try permissions.state(client, .contacts, in: txn).status == .fullAccess ? "contacts" : nil
        views[client] = (calendars, contacts)
      }
      return views
    }
  }
}
