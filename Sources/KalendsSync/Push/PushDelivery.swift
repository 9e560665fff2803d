import Foundation
package import Kalends
import Synchronization

/// Delivers WebDAV-Push messages for the store's registrations while `kalends serve` runs.
///
/// It follows every commit of the store, by any process (``Store/changes(from:options:)``), and
/// after each looks at the live registrations: a registration is due when its collection, as its
/// app sees it now — the collection's stamp read through the app's own session, so with its access,
/// its chosen calendars and contacts — differs from what it was when last looked at. A change the
/// app may not see moves no stamp, and pushes nothing. Each due registration gets one message (the
/// draft's `push-message` with the app's topic and its sync token now), encrypted to its subscription (RFC 8291), signed
/// with the store's VAPID key (RFC 8292), posted with `TTL`, `Urgency` and `Topic`, by at most
/// ``senders`` senders at once. Messages are coalesced per registration: at most one in flight or
/// waiting, and a burst of changes during it is one more message, ``spacing`` after it. A push service answering 429 or 5xx is tried again after a backoff (its
/// `Retry-After`, else 1 s doubling, three tries); 404 or 410 ends the registration (a record by
/// the system); a push service that does not answer within the timeout delays that registration
/// only.
package final class PushDelivery: Sendable {
  let store: Store
  /// Whether push resources on loopback are posted to (`--push-allow-loopback`).
  let allowsLoopback: Bool
  /// The VAPID `sub`: how the push service reaches the store's operator.
  let contact: String
  /// Seconds for one post.
  let timeout: Int
  private let state = Mutex(State())

  private struct State {
    /// The stamp of each registration's collection when last looked at.
    var stamps: [ObjectID: Stamp] = [:]
    /// Registrations waiting for a sender, in the order they fell due.
    var queue: [PushRegistration] = []
    var queued: Set<ObjectID> = []
    /// Registrations with a message in flight, and those due again after it.
    var sending: Set<ObjectID> = []
    var dueAgain: Set<ObjectID> = []
    /// Senders running.
    var senders = 0
    /// The VAPID `Authorization` of each push service's origin, and when it was made.
    var authorizations: [String: (header: String, made: Date)] = [:]
  }

  /// The most messages in flight at once: each is a connection of its own.
  static let senders = 16

  /// A collection's stamp as an app sees it; `nil` when it sees it no longer.
  struct Stamp: Equatable {
    let version: LogPosition
    let items: Int
  }

  /// What happened to one message, for the tests and the log.
  package enum Outcome: Sendable, Equatable {
    case delivered(status: Int)
    case gone(status: Int)
    case failed(String)
  }

  /// Told of each message's outcome.
  let observe: @Sendable (PushRegistration, Outcome) -> Void

  package init(
    store: Store, allowsLoopback: Bool, contact: String, timeout: Int = 10,
    observe: @escaping @Sendable (PushRegistration, Outcome) -> Void = { _, _ in }
  ) {
    (self.store, self.allowsLoopback, self.contact, self.timeout, self.observe) =
      (store, allowsLoopback, contact, timeout, observe)
  }

  /// Follows the store's commits until cancelled, looking at the registrations after each.
  package func follow() async throws {
    try look(baseline: true)
    for try await _ in store.changes() {
      try look(baseline: false)
    }
  }

  /// Looks at every live registration: each whose collection's stamp moved is due. With
  /// `baseline`, stamps are only taken (the first look after starting).
  func look(baseline: Bool) throws {
    let person = EventStore(store: store)
    let now = store.now()
    let registrations = try person.pushRegistrations().filter { !$0.hasExpired(at: now) }
    var due: [PushRegistration] = []
    var stamps: [ObjectID: Stamp] = [:]
    // One read per app and collection, however many registrations share them.
    var read: [String: Stamp?] = [:]
    for registration in registrations {
      let pair = registration.client + "\u{0}" + registration.collection.description
      let stamp =
        try read[pair]
        ?? { () throws -> Stamp? in
          let stamp = try? Self.stamp(of: registration, person)
          read[pair] = .some(stamp)
          return stamp
        }()
      let known = state.withLock { $0.stamps[registration.id] }
      stamps[registration.id] = stamp ?? Stamp(version: .none, items: -1)
      // A registration first seen was made since the last look: its baseline is its own record.
      let before = known ?? (baseline ? stamp : Stamp(version: registration.version, items: -2))
      if let stamp, stamp != before, stamp.version > registration.version || known != nil { due.append(registration) }
    }
    state.withLock { $0.stamps = stamps }
    for registration in due { enqueue(registration) }
  }

  /// The stamp of the registration's collection as its app sees it now.
  static func stamp(of registration: PushRegistration, _ person: EventStore) throws -> Stamp? {
    let session = try person.session(for: registration.client)
    if registration.service == .contacts {
      let stamp = try session.contactStore.contactsStamp(in: registration.collection)
      return Stamp(version: stamp.version, items: stamp.items)
    }
    return try session.calendarStamp(inCalendar: registration.collection).map {
      Stamp(version: $0.version, items: $0.items)
    }
  }

  /// Sends a message for `registration`: queued for the next free sender, or — when one is in
  /// flight for it — once more after it.
  private func enqueue(_ registration: PushRegistration) {
    let start = state.withLock { state -> Bool in
      if state.sending.contains(registration.id) {
        state.dueAgain.insert(registration.id)
      } else if state.queued.insert(registration.id).inserted {
        state.queue.append(registration)
      }
      guard state.senders < Self.senders, !state.queue.isEmpty else { return false }
      state.senders += 1
      return true
    }
    if start { Task { await drain() } }
  }

  /// A sender: sends the queued messages one after another until none is left.
  private func drain() async {
    while true {
      let next = state.withLock { state -> PushRegistration? in
        guard !state.queue.isEmpty else {
          state.senders -= 1
          return nil
        }
        let registration = state.queue.removeFirst()
        state.queued.remove(registration.id)
        state.sending.insert(registration.id)
        return registration
      }
      guard let registration = next else { return }
      let outcome = await send(registration)
      observe(registration, outcome)
      let again = state.withLock { state -> Bool in
        // Changes during a delivered message are one more message, sent no sooner than
        // ``spacing`` after it (the registration stays "sending" meanwhile, so more changes fold
        // into that one); after a failure, the next change tries again.
        if state.dueAgain.remove(registration.id) != nil, Self.isDelivered(outcome) { return true }
        state.sending.remove(registration.id)
        return false
      }
      if again {
        Task {
          try? await Task.sleep(for: Self.spacing)
          requeue(registration)
        }
      }
    }
  }

  /// The least time between two messages to one registration: a burst of changes is a message at
  /// its start and one per `spacing` while it lasts — a client syncs on each, and more would only
  /// cost the writer's machine.
  static let spacing: Duration = .seconds(2)

  /// Queues `registration`, held back since its last message, for the next free sender.
  private func requeue(_ registration: PushRegistration) {
    state.withLock { state in
      state.sending.remove(registration.id)
      state.dueAgain.remove(registration.id)
    }
    enqueue(registration)
  }

  private static func isDelivered(_ outcome: Outcome) -> Bool {
    if case .delivered = outcome { return true }
    return false
  }

  /// The VAPID `Authorization` for a push to `endpoint`: one per push service's origin, made again
  /// after an hour (it is valid for twelve).
  private func authorization(for endpoint: URL) throws -> String? {
    let origin = (endpoint.scheme ?? "") + "://" + (endpoint.host ?? "") + ":" + String(endpoint.port ?? 0)
    let now = Date()
    if let kept = state.withLock({ $0.authorizations[origin] }), now.timeIntervalSince(kept.made) < 3600 {
      return kept.header
    }
    let key = VAPID.key(fromSecret: try store.pushSecret())
    guard let header = VAPID.authorization(endpoint: endpoint, key: key, subject: contact, now: now) else { return nil }
    state.withLock { $0.authorizations[origin] = (header, now) }
    return header
  }

  /// Posts one message to the registration's push resource, trying again on 429 and 5xx.
  func send(_ registration: PushRegistration) async -> Outcome {
    let person = EventStore(store: store)
    do {
      guard let subscription = try person.pushSubscription(of: registration.id) else {
        return .failed("the registration ended")
      }
      guard let url = RemoteURL(subscription.endpoint), let endpoint = URL(string: subscription.endpoint) else {
        return .failed("the push resource is not an address")
      }
      if PushEndpointCheck.isLocal(url.host) && !(allowsLoopback && PushEndpointCheck.isLoopback(url.host)) {
        return .failed("the push resource \(url.host) is local")
      }
      let topic = try person.pushTopic(of: registration.collection, forClient: registration.client)
      // The collection's sync token now, as the store's DAV gives this app its tokens (its
      // position sealed for it): a client holding it already need not sync.
      let head = try store.head().position
      let token = "urn:kalends:sync:" + (try store.positionSeal().view(for: registration.client).token(head))
      let message = Array(
        """
        <?xml version="1.0" encoding="utf-8"?><P:push-message xmlns:P="https://bitfire.at/webdav-push" \
        xmlns:D="DAV:"><P:topic>\(topic)</P:topic><P:content-update><D:sync-token>\(token)</D:sync-token>\
        </P:content-update></P:push-message>
        """.utf8)
      guard let authorization = try authorization(for: endpoint) else {
        return .failed("no VAPID audience for \(subscription.endpoint)")
      }
      var wait = 1.0
      for attempt in 0..<3 {
        let body = try WebPushMessage.encrypt(message, p256dh: subscription.p256dh, auth: subscription.auth)
        let headers = [
          ("Authorization", authorization), ("Content-Encoding", "aes128gcm"),
          ("Content-Type", "application/octet-stream"), ("TTL", "86400"), ("Urgency", "normal"), ("Topic", topic),
        ]
        let answer = try await RemoteHTTP.send(
          "POST", url, headers: headers, body: body, limit: 64 << 10, timeout: timeout)
        switch answer.status {
        case 200..<300: return .delivered(status: answer.status)
        case 404, 410:
          try person.endGonePushRegistration(registration.id)
          return .gone(status: answer.status)
        case 429 where attempt < 2, 500..<600 where attempt < 2:
          let asked = answer.header("Retry-After").flatMap { DAVRemote.retryAfter($0) }.map(Double.init) ?? wait
          try await Task.sleep(for: .seconds(min(asked, 60)))
          wait *= 2
        default:
          return .failed("the push service answered \(answer.status)")
        }
      }
      return .failed("the push service kept answering busy")
    } catch {
      return .failed("\(error)")
    }
  }
}
