import Foundation
package import Kalends
import NIOCore
import NIOPosix
import Synchronization

/// Delivers WebDAV-Push messages for the store's registrations while `kalends serve` runs.
///
/// It follows every commit of the store, by any process (``Store/changes(from:options:)``), and
/// after them looks at the live registrations (at most every ``lookSpacing``, on
/// ``PushThreads/looks``): a registration is due when its collection, as its app sees it now — the
/// collection's stamp read through the app's own session, so with its access, its chosen calendars
/// and contacts — differs from what it was when last looked at, in what the registration asked to
/// be told of: its members (content) or the collection's own properties. A change the app may not
/// see moves no stamp, and pushes nothing. What is told is counted as the app's use of the
/// collection (``EventStore/recordPushNotices(_:)``), durably before any message leaves.
///
/// Each due registration gets one message (the draft's `push-message` with the app's topic and a
/// `content-update` with its sync token, or a `property-update`), encrypted to its subscription
/// (RFC 8291), signed with the store's VAPID key (RFC 8292), posted with `TTL`, `Urgency` (`high`
/// when an item saved has an alarm due within ``EventStore/pushUrgencyWindow``) and `Topic`. At
/// most ``senders`` senders post at once (on ``PushThreads/senders``), each over a connection it
/// keeps open to one push service while messages for it wait (a push service's address is resolved
/// and checked for each connection: one that resolves to a local address is refused as the address
/// itself would be). Messages are coalesced per registration — at most one in flight or waiting,
/// changes meanwhile folded into it — and paced (``Pace``): a burst of changes is a handful of
/// messages. A push service answering 429 or 5xx is tried again after a backoff (its `Retry-After`,
/// else 1 s doubling, three tries); 404 or 410 ends the registration (a record by the system); a
/// push service that does not answer within the timeout delays that sender only.
///
/// A registration an app names in `Push-Dont-Notify` while writing is held back from the looks
/// during its write, and the write's change is taken as seen (``PushHolds``).
package final class PushDelivery: Sendable {
  let store: Store
  /// Whether push resources on loopback are posted to (`--push-allow-loopback`).
  let allowsLoopback: Bool
  /// The VAPID `sub`: how the push service reaches the store's operator.
  let contact: String
  /// Seconds for one post.
  let timeout: Int
  /// The registrations held back during their apps' writes (`Push-Dont-Notify`).
  let holds: PushHolds
  private let state = Mutex(State())
  /// Held by each look: one at a time.
  private let looking = Mutex(())

  private struct State {
    /// The stamp of each registration's collection when last looked at.
    var stamps: [ObjectID: Stamp] = [:]
    /// The opened subscription of each live registration, once needed.
    var targets: [ObjectID: Target] = [:]
    /// The topic of each app and collection.
    var topics: [Pair: String] = [:]
    /// The log's head at the last look: what urgency is judged after.
    var looked: LogPosition?
    /// Messages waiting for a sender, in the order they fell due.
    var queue = PushQueue()
    /// Registrations with a message in flight, and those due again after it.
    var sending: Set<ObjectID> = []
    var dueAgain: [ObjectID: Job] = [:]
    /// When each registration's last message ended, and the least time before its next.
    var paces: [ObjectID: Pace] = [:]
    /// Messages held back by their registration's pace, each sent when its time comes.
    var deferred: [ObjectID: Job] = [:]
    /// Senders running.
    var senders = 0
    /// Whether a look is asked for, whether one runs, and what the last one threw.
    var lookWanted = false
    var lookRunning = false
    var lookFailure: (any Error)?
    /// When the last look after a commit ended.
    var lastLook: ContinuousClock.Instant?
    /// Senders started: which of ``PushThreads/senders`` the next one runs on.
    var started = 0
    /// The VAPID `Authorization` of each push service's origin, and when it was made.
    var authorizations: [String: (header: String, made: Date)] = [:]

    /// Folds a change into the message waiting for registration `id` — the one due after the
    /// message in flight, or the one its pace holds back — with the newer `token`. `false` when
    /// none waits: the change needs a message of its own (``PushDelivery/enqueue(_:paced:)``).
    mutating func fold(_ id: ObjectID, kinds: PushTriggers, urgent: Bool, token: String) -> Bool {
      if var job = dueAgain[id] {
        job.fold(kinds: kinds, urgent: urgent, token: token)
        dueAgain[id] = job
      } else if var job = deferred[id] {
        job.fold(kinds: kinds, urgent: urgent, token: token)
        deferred[id] = job
      } else {
        return false
      }
      return true
    }
  }

  /// The most messages in flight at once, and connections open.
  static let senders = 16

  /// A collection's stamp as an app sees it; `nil` when it sees it no longer.
  struct Stamp: Equatable, Sendable {
    /// The collection's own version: its properties.
    let properties: LogPosition
    /// The latest version among its members the app sees, and how many those are: its content.
    let version: LogPosition
    let items: Int
  }

  /// An app and a collection.
  struct Pair: Hashable, Sendable {
    let client: String
    let collection: ObjectID

    init(_ registration: PushRegistration) { (client, collection) = (registration.client, registration.collection) }
  }

  /// Where a registration's messages go, opened from its seal: one, shared by its messages.
  final class Target: Sendable {
    let subscription: PushSubscription
    /// Its `p256dh` key, decoded once.
    let peer: P256PublicKey
    let url: RemoteURL
    /// The push service's origin: what a connection is kept to.
    let origin: String

    init(subscription: PushSubscription, peer: P256PublicKey, url: RemoteURL, origin: String) {
      (self.subscription, self.peer, self.url, self.origin) = (subscription, peer, url, origin)
    }
  }

  /// One message to send.
  struct Job: Sendable {
    let registration: PushRegistration
    let target: Target
    let topic: String
    /// The collection's sync token for the app when the change was seen.
    var token: String
    /// What it tells of: content updates, property updates, or both.
    var kinds: PushTriggers
    var urgent: Bool

    /// This message with what `other` (a change it is folded with) tells: urgent also when it is.
    func folding(_ other: Job?) -> Job {
      var job = self
      if let other { job.fold(kinds: other.kinds, urgent: other.urgent, token: token) }
      return job
    }

    /// Tells also of a later change: of `kinds` too, urgent also when it is, with its `token`.
    mutating func fold(kinds: PushTriggers, urgent: Bool, token: String) {
      self.kinds.formUnion(kinds)
      self.urgent = self.urgent || urgent
      self.token = token
    }
  }

  /// A registration's pace: a message when a change comes after a quiet ``spacing``; during a
  /// burst of changes, one more after each spacing, the spacing doubling up to ``longestSpacing``,
  /// so that a burst of a thousand changes is a handful of messages.
  struct Pace {
    var last: ContinuousClock.Instant
    var spacing: Duration
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
    store: Store, allowsLoopback: Bool, contact: String, timeout: Int = 10, holds: PushHolds = PushHolds(),
    observe: @escaping @Sendable (PushRegistration, Outcome) -> Void = { _, _ in }
  ) {
    (self.store, self.allowsLoopback, self.contact, self.timeout, self.holds, self.observe) =
      (store, allowsLoopback, contact, timeout, holds, observe)
  }

  /// Follows the store's commits until cancelled, looking at the registrations after each, and
  /// after each write that held registrations back.
  package func follow() async throws {
    try look(baseline: true)
    holds.onRelease { [self] in try? lookSoon(reporting: false) }
    for try await _ in store.changes() {
      try lookSoon()
    }
  }

  /// Has the registrations looked at on ``PushThreads/looks``: at once after a quiet
  /// ``lookSpacing``, else when that spacing from the last look has passed — the commits that come
  /// meanwhile are seen by one look. With `reporting`, throws what a look threw since it was last
  /// reported.
  private func lookSoon(reporting: Bool = true) throws {
    let start = try state.withLock { state throws -> Bool in
      if reporting, let failure = state.lookFailure {
        state.lookFailure = nil
        throw failure
      }
      state.lookWanted = true
      guard !state.lookRunning else { return false }
      state.lookRunning = true
      return true
    }
    guard start else { return }
    Task(executorPreference: PushThreads.looks) { [self] in
      // The earliest the next look may begin; `nil` when none is wanted, and this task ends.
      while let notBefore = state.withLock({ state -> ContinuousClock.Instant? in
        guard state.lookWanted else {
          state.lookRunning = false
          return nil
        }
        return state.lastLook.map { $0 + Self.lookSpacing } ?? .now
      }) {
        if ContinuousClock.now < notBefore { try? await Task.sleep(until: notBefore) }
        state.withLock { $0.lookWanted = false }
        do { try look(baseline: false) } catch { state.withLock { $0.lookFailure = error } }
        state.withLock { $0.lastLook = .now }
      }
    }
  }

  /// The least time from one look to the next, while commits keep coming: a message to a
  /// registration waits its ``Pace`` of a second or more anyway, and a burst of commits is then a
  /// few looks a second rather than one each, each reading every registration.
  static let lookSpacing: Duration = .milliseconds(200)

  /// Looks at every live registration: each whose collection's stamp moved is due. With
  /// `baseline`, stamps are only taken (the first look after starting).
  func look(baseline: Bool) throws {
    try looking.withLock { _ in try lookOnce(baseline: baseline) }
  }

  private func lookOnce(baseline: Bool) throws {
    let person = EventStore(store: store)
    let now = store.now()
    let registrations = try person.pushRegistrations().filter { !$0.hasExpired(at: now) }
    // Apps whose view of a collection is the same share one read of its stamp.
    let views = try person.pushSharedViews(of: Set(registrations.map(\.client)))
    var due: [(registration: PushRegistration, kinds: PushTriggers)] = []
    var stamps: [ObjectID: Stamp] = [:]
    // One read per app and collection, however many registrations share them.
    var read: [Reading: Stamp?] = [:]
    // A write that held a registration back: its change is seen, when nothing else waited.
    let (withheld, released) = holds.take()
    let known = state.withLock { state in
      // (A registration made since the last look has no stamp yet: what it saw is its baseline.)
      for release in released where state.stamps[release.id] == nil || state.stamps[release.id] == release.before {
        if let after = release.after { state.stamps[release.id] = after }
      }
      return state.stamps
    }
    for registration in registrations {
      // Held back during its app's write: looked at when the write is done.
      if withheld.contains(registration.id) {
        if let stamp = known[registration.id] { stamps[registration.id] = stamp }
        continue
      }
      let view = views[registration.client].flatMap { registration.service == .contacts ? $0.contacts : $0.calendars }
      let stamp = try stamp(of: registration, person, sharing: view, reading: &read)
      stamps[registration.id] = stamp ?? Stamp(properties: .none, version: .none, items: -1)
      guard let stamp else { continue }
      var kinds: PushTriggers = []
      if let before = known[registration.id] {
        if stamp.version != before.version || stamp.items != before.items { kinds.insert(.content) }
        if stamp.properties != before.properties { kinds.insert(.properties) }
      } else if !baseline {
        // A registration first seen was made since the last look: what came after its record.
        if stamp.version > registration.version { kinds.insert(.content) }
        if stamp.properties > registration.version { kinds.insert(.properties) }
      }
      kinds.formIntersection(registration.triggers)
      if !kinds.isEmpty { due.append((registration, kinds)) }
    }
    let looked = state.withLock { state in
      state.stamps = stamps
      state.targets = state.targets.filter { stamps[$0.key] != nil }
      return state.looked
    }
    // The head looked at: what urgency is judged after next time, and the sync token now.
    var (head, urgent) = (LogPosition.none, Set<ObjectID>())
    if let looked, !due.isEmpty {
      (head, urgent) = try person.calendarsWithAlarmsSoon(changedAfter: looked)
    } else {
      head = try store.head().position
    }
    state.withLock { $0.looked = head }
    try dispatch(due, urgent: urgent, at: head, person)
  }

  /// The stamp of the registration's collection as its app sees it now, read once per app and
  /// collection in `read` — once per collection for the apps that share `view`.
  private func stamp(
    of registration: PushRegistration, _ person: EventStore, sharing view: String?,
    reading read: inout [Reading: Stamp?]
  ) throws -> Stamp? {
    let key = Reading(view: view, client: view == nil ? registration.client : nil, collection: registration.collection)
    if let stamp = read[key] { return stamp }
    let stamp = try? Self.stamp(of: registration, person)
    read[key] = .some(stamp)
    return stamp
  }

  /// What one read of a stamp serves: the apps sharing a view of a collection, or one app's.
  struct Reading: Hashable {
    let view: String?
    let client: String?
    let collection: ObjectID
  }

  /// The stamp of the registration's collection as its app sees it now — not counted as the
  /// app's read: what it is told is counted instead.
  static func stamp(of registration: PushRegistration, _ person: EventStore) throws -> Stamp? {
    let session = try person.session(for: registration.client)
    if registration.service == .contacts {
      let stamp = try session.contactStore.contactsStamp(in: registration.collection, recordingUse: false)
      return Stamp(properties: stamp.properties, version: stamp.version, items: stamp.items)
    }
    return try session.calendarStampParts(inCalendar: registration.collection, recordingUse: false).map {
      Stamp(properties: $0.properties, version: $0.version, items: $0.items)
    }
  }

  /// Counts what the due registrations' apps are told, then queues their messages, each with the
  /// sync token of `head`.
  private func dispatch(
    _ due: [(registration: PushRegistration, kinds: PushTriggers)], urgent: Set<ObjectID>, at head: LogPosition,
    _ person: EventStore
  ) throws {
    guard !due.isEmpty else { return }
    var told: Set<Pair> = []
    var notices: [(client: String, service: Service, collection: ObjectID)] = []
    for (registration, _) in due where told.insert(Pair(registration)).inserted {
      notices.append((registration.client, registration.service, registration.collection))
    }
    try person.recordPushNotices(notices)
    // The collections' sync token, as the store's DAV gives each app its tokens (its position
    // sealed for it): a client holding it already need not sync.
    let seal = try store.positionSeal()
    var tokens: [String: String] = [:]
    var fresh: [(registration: PushRegistration, kinds: PushTriggers, urgent: Bool, token: String)] = []
    state.withLock { state in
      for (registration, kinds) in due {
        let token =
          tokens[registration.client]
          ?? {
            let made = "urn:kalends:sync:" + seal.view(for: registration.client).token(head)
            tokens[registration.client] = made
            return made
          }()
        let urgent = kinds.contains(.content) && urgent.contains(registration.collection)
        // A message waiting or in flight with another after it takes the change in: during a burst
        // most changes are, and cost no new message.
        if !state.fold(registration.id, kinds: kinds, urgent: urgent, token: token) {
          fresh.append((registration, kinds, urgent, token))
        }
      }
    }
    for (registration, kinds, urgent, token) in fresh {
      guard let job = try job(for: registration, kinds: kinds, urgent: urgent, token: token, person) else { continue }
      enqueue(job)
    }
  }

  /// The message for `registration`; `nil` when its registration ended or its push resource is
  /// no longer one the store posts to.
  private func job(
    for registration: PushRegistration, kinds: PushTriggers, urgent: Bool, token: String, _ person: EventStore
  ) throws -> Job? {
    let pair = Pair(registration)
    var (target, topic) = state.withLock { ($0.targets[registration.id], $0.topics[pair]) }
    if target == nil {
      guard let subscription = try person.pushSubscription(of: registration.id) else { return nil }
      guard let url = RemoteURL(subscription.endpoint), let peer = P256PublicKey(subscription.p256dh) else {
        observe(registration, .failed("the push resource is not an address, or its key not a P-256 point"))
        return nil
      }
      let opened = Target(
        subscription: subscription, peer: peer, url: url,
        origin: (url.isSecure ? "https://" : "http://") + url.host + ":" + String(url.port))
      state.withLock { $0.targets[registration.id] = opened }
      target = opened
    }
    if topic == nil {
      let made = try person.pushTopic(of: registration.collection, forClient: registration.client)
      state.withLock { $0.topics[pair] = made }
      topic = made
    }
    guard let target, let topic else { return nil }
    return Job(registration: registration, target: target, topic: topic, token: token, kinds: kinds, urgent: urgent)
  }

  /// Sends `job`: queued for the next free sender; when a message is in flight for its
  /// registration, once more after it; when its registration's last message ended less than its
  /// spacing ago, when the spacing has passed (``Pace``).
  /// With `paced` false (a message its pace held back, now due), it is queued at once.
  private func enqueue(_ job: Job, paced: Bool = true) {
    let id = job.registration.id
    let now = ContinuousClock.now
    let (start, wait) = state.withLock { state -> (sender: Int?, wait: Duration?) in
      if state.sending.contains(id) {
        state.dueAgain[id] = job.folding(state.dueAgain[id])
        return (nil, nil)
      }
      if let waiting = state.deferred[id] {
        state.deferred[id] = job.folding(waiting)
        return (nil, nil)
      }
      if paced, var pace = state.paces[id] {
        if now < pace.last + pace.spacing {
          state.deferred[id] = job
          let wait = pace.last + pace.spacing - now
          pace.spacing = min(pace.spacing * 2, Self.longestSpacing)
          state.paces[id] = pace
          return (nil, wait)
        }
        // A quiet spacing has passed: the pace starts again.
        state.paces[id]?.spacing = Self.spacing
      }
      state.queue.add(job)
      guard state.senders < Self.senders, !state.queue.isEmpty else { return (nil, nil) }
      state.senders += 1
      state.started &+= 1
      return (state.started, nil)
    }
    if let start {
      let executor = PushThreads.senders[start % PushThreads.senders.count]
      Task(executorPreference: executor) { [self] in await drain(on: executor.loop) }
    }
    if let wait {
      Task {
        try? await Task.sleep(for: wait)
        guard let job = state.withLock({ $0.deferred.removeValue(forKey: id) }) else { return }
        enqueue(job, paced: false)
      }
    }
  }

  /// The next message: the first waiting for `origin` when given (`nil` when none does), else the
  /// first waiting (`nil` when none does, and the sender stops).
  private func take(for origin: String?) -> Job? {
    state.withLock { state -> Job? in
      guard let job = state.queue.take(for: origin) else {
        if origin == nil { state.senders -= 1 }
        return nil
      }
      state.sending.insert(job.registration.id)
      return job
    }
  }

  /// A sender: sends the waiting messages until none is left, over a connection to each push
  /// service kept open while messages for it wait.
  private func drain(on loop: any EventLoop) async {
    var next = take(for: nil)
    while let job = next {
      next = await sendOverOneConnection(starting: job, on: loop) ?? take(for: nil)
    }
  }

  /// Opens a connection to `first`'s push service and sends it, then the other messages waiting
  /// for that service, over it. Returns a message to send again over a new connection: one that
  /// met a kept connection the push service had closed meanwhile.
  private func sendOverOneConnection(starting first: Job, on loop: any EventLoop) async -> Job? {
    let url = first.target.url
    let address: SocketAddress
    do {
      address = try await resolve(url)
    } catch {
      finish(first, .failed("\(error)"))
      return nil
    }
    do {
      return try await RemoteHTTP.withConnection(
        to: url, address: address, on: loop, connectTimeout: min(timeout, 15)
      ) {
        connection -> Job? in
        var job = first
        while true {
          // A kept connection closed by the push service before answering: again, on a new one.
          guard let outcome = await send(job, over: connection) else { return job }
          finish(job, outcome)
          guard connection.isReusable, let following = take(for: job.target.origin) else { return nil }
          job = following
        }
      }
    } catch {
      finish(first, .failed("\(error)"))
      return nil
    }
  }

  /// The address to connect to for `url`: resolved, and refused when it is local (loopback only
  /// where allowed) — a name an app chose may point anywhere.
  private func resolve(_ url: RemoteURL) async throws -> SocketAddress {
    let address = try await NIOThreadPool.singleton.runIfActive {
      try SocketAddress.makeAddressResolvingHost(url.host, port: url.port)
    }
    let ip = address.ipAddress ?? ""
    if PushEndpointCheck.isLocal(ip) && !(allowsLoopback && PushEndpointCheck.isLoopback(ip)) {
      throw RemoteError.invalidAddress("the push resource \(url.host) is at the local address \(ip)")
    }
    return address
  }

  /// Ends a message's turn: tells the observer, paces its registration, and sends the changes
  /// made meanwhile as its next message (``enqueue(_:)``). After a registration ended, nothing.
  private func finish(_ job: Job, _ outcome: Outcome) {
    observe(job.registration, outcome)
    let id = job.registration.id
    let next = state.withLock { state -> Job? in
      state.sending.remove(id)
      let spacing = state.paces[id]?.spacing ?? Self.spacing
      state.paces[id] = Pace(last: .now, spacing: spacing)
      let next = state.dueAgain.removeValue(forKey: id)
      if case .gone = outcome { return nil }
      return next
    }
    if let next { enqueue(next) }
  }

  /// The least time between two messages to one registration, and the longest a burst of changes
  /// makes it (``Pace``): a client syncs on each message, and more would only cost the writer's
  /// machine.
  static let spacing: Duration = .seconds(1)
  static let longestSpacing: Duration = .seconds(16)

  /// The VAPID `Authorization` for a push to `url`'s origin: made once per origin, again after an
  /// hour (it is valid for twelve).
  private func authorization(for target: Target) throws -> String? {
    let now = Date()
    if let kept = state.withLock({ $0.authorizations[target.origin] }), now.timeIntervalSince(kept.made) < 3600 {
      return kept.header
    }
    guard let endpoint = URL(string: target.subscription.endpoint) else { return nil }
    let key = VAPID.key(fromSecret: try store.pushSecret())
    guard let header = VAPID.authorization(endpoint: endpoint, key: key, subject: contact, now: now) else { return nil }
    state.withLock { $0.authorizations[target.origin] = (header, now) }
    return header
  }

  /// Posts one message over `connection`, trying again on 429 and 5xx; `nil` when a connection
  /// that had carried messages broke before answering (the push service closed it meanwhile).
  func send(_ job: Job, over connection: RemoteConnection) async -> Outcome? {
    let person = EventStore(store: store)
    let registration = job.registration
    do {
      // What changed: the content, with the sync token a client holding needs not sync; the
      // collection's own properties.
      let content =
        job.kinds.contains(.content)
        ? "<P:content-update><D:sync-token>\(job.token)</D:sync-token></P:content-update>" : ""
      let properties =
        job.kinds.contains(.properties) ? "<P:property-update><D:depth>0</D:depth></P:property-update>" : ""
      let message = Array(
        """
        <?xml version="1.0" encoding="utf-8"?><P:push-message xmlns:P="https://bitfire.at/webdav-push" \
        xmlns:D="DAV:"><P:topic>\(job.topic)</P:topic>\(content)\(properties)</P:push-message>
        """.utf8)
      guard let authorization = try authorization(for: job.target) else {
        return .failed("no VAPID audience for \(job.target.url)")
      }
      let subscription = job.target.subscription
      var wait = 1.0
      for attempt in 0..<3 {
        let body = try WebPushMessage.encrypt(
          message, to: job.target.peer, p256dh: subscription.p256dh, auth: subscription.auth)
        let headers = [
          ("Authorization", authorization), ("Content-Encoding", "aes128gcm"),
          ("Content-Type", "application/octet-stream"), ("TTL", "86400"),
          ("Urgency", job.urgent ? "high" : "normal"), ("Topic", job.topic),
        ]
        let reused = connection.exchanges > 0
        let answer: RemoteResponse
        do {
          answer = try await connection.send(
            "POST", target: job.target.url.target, headers: headers, body: body, limit: 64 << 10, timeout: timeout)
        } catch {
          if reused && attempt == 0, case .unreachable = error { return nil }
          throw error
        }
        switch answer.status {
        case 200..<300: return .delivered(status: answer.status)
        case 404, 410:
          try person.endGonePushRegistration(registration.id)
          return .gone(status: answer.status)
        case 429 where attempt < 2, 500..<600 where attempt < 2:
          let asked = answer.header("Retry-After").flatMap { DAVRemote.retryAfter($0) }.map(Double.init) ?? wait
          try await Task.sleep(for: .seconds(min(asked, 60)))
          wait *= 2
          guard connection.isReusable else {
            return .failed("the push service closed the connection after \(answer.status)")
          }
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
