import Foundation
import Hummingbird
package import Kalends
import KalendsFormats
package import NIOCore
import NIOPosix
import Synchronization

/// The store server: owns one store and answers apps over a Unix socket, each identified by what
/// the kernel says about its process, never by what it says about itself.
///
/// A connection is identified once, at its first request: the peer's credentials must be the
/// server's own user's; a process running the server's own executable — the same path and the
/// same bytes — in the server's own mount and user namespaces and root, outside any Flatpak, is
/// the person's channel (the `kalends` command: prompts; ``isPersonsChannel(_:)``); otherwise its
/// executable (path and digest of the running file) or Flatpak id must satisfy exactly one
/// registered app's `CodeRequirement`. An app's
/// calls run in a session of that app (`EventStore/session(for:)`), so every access check and
/// refusal record is the library's. A caller that is not identified gets 401, and
/// `callerUnidentified` records hold the evidence, coalesced per caller and minute.
package final class StoreServer: Sendable {
  /// The store, as its owner.
  let owner: EventStore
  /// The user the server runs as: the person's.
  let ownerUID = getuid()
  /// The consent prompts waiting for the person.
  let desk: PromptDesk
  /// The refused connections not yet in the log.
  let unidentified = UnidentifiedTally()
  /// The callers of open connections, by connection.
  private let callers = Mutex<[ObjectIdentifier: Caller]>([:])
  /// The app processes (and TCP connections) whose session ended because their access was changed
  /// from outside: as EventKit's apps are killed then, each of their later calls gets 401 until
  /// the app restarts (or, over TCP, connects again).
  private let ended = Mutex<Set<SessionHolder>>([])

  /// What holds an app's session: one process for as long as the machine runs (its pid and start
  /// time), or a TCP connection (its number).
  enum SessionHolder: Hashable, Sendable {
    case process(pid: Int32, start: UInt64)
    case connection(UInt64)
  }
  /// Who is at the other end of a connection.
  enum Caller: Sendable {
    /// A registered app, its session, and what holds the session.
    case app(Kalends.Client, EventStore, CallerEvidence, SessionHolder)
    /// The person who owns the store, through the `kalends` command.
    case owner(CallerEvidence)
    /// Someone the server could not identify.
    case unidentified(String)
  }

  /// Where apps' access requests ask the person.
  let prompts: PromptChannel
  /// The threads the store's calls run on: more than the cores, since a durable write waits for
  /// the disk, and concurrent writes share a commit only while they wait together.
  let pool = NIOThreadPool(numberOfThreads: max(16, 4 * System.coreCount))
  /// The threads that read a new Unix-socket caller's `/proc` files and hash its executable: apart
  /// from the store's and the event loops, so that a caller with a huge executable slows only the
  /// identification of new connections, never the calls of those already served.
  let identification = NIOThreadPool(numberOfThreads: 2)
  /// The executables hashed so far, by what changes when their files change.
  let digests = DigestCache()
  /// The connections each app holds at once, by app id.
  let connectionSlots = CallerSlots(limit: 64)
  /// The TCP connections each network (on loopback: each local user) holds at once until a
  /// request identifies an app on them (``NetworkSlotsHandler``).
  let networkSlots = CallerSlots(limit: 16)
  /// The TCP connections each network holds beyond ``networkSlots``, each for at most
  /// ``NetworkSlotsHandler/waitingDeadline`` unless a request identifies an app on it: room for a
  /// client's burst of parallel connections, none for idle ones.
  let waitingSlots = CallerSlots(limit: 64)
  /// The change streams each app holds open at once, by app id.
  let streamSlots = CallerSlots(limit: 8)
  /// The streamed answers (`GET /v1/events`) each app is being sent at once, by app id: each holds
  /// a thread and a snapshot of the store while the app reads it.
  let answerSlots = CallerSlots(limit: 2)

  /// What apps are shown of the log's positions: tags and tokens, never positions (`PositionSeal`).
  let positionSeal: PositionSeal

  /// The protocol front ends served beside the API.
  let frontEnds: [any FrontEnd]

  init(
    owner: EventStore, promptTimeout: Duration, onTerminal: Bool = false, frontEnds: [any FrontEnd] = [],
    notifier: DesktopNotifier? = nil
  ) throws(StoreError) {
    self.owner = owner
    self.frontEnds = frontEnds
    positionSeal = try owner.store.positionSeal()
    desk = PromptDesk(timeout: promptTimeout) { pending in
      guard let notifier else { return }
      let (summary, body) = PromptDesk.announcement(pending)
      // The asking call waits for the person; telling the person must not hold it, nor a thread of
      // the server's tasks.
      notifier.post(summary: summary, body: body) { _ in }
    }
    prompts = onTerminal ? .terminal(TerminalDesk(timeout: promptTimeout)) : .desk(desk)
    pool.start()
    identification.start()
  }

  /// Runs `body` on a thread of its own: for calls that may wait for the person (a consent
  /// prompt), which must hold neither an event loop nor a thread of the shared pool.
  func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    do {
      return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
      }
    } catch let error as StoreError {
      throw Problem(error)
    } catch let error as RequestError {
      throw Problem(error)
    }
  }

  /// Runs `body` with the store off the event loop: LMDB calls block.
  package func withStore<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    do {
      return try await pool.runIfActive(body)
    } catch let error as StoreError {
      throw Problem(error)
    } catch let error as RequestError {
      throw Problem(error)
    }
  }

  /// The identified app at the other end of `context`'s connection; throws a 401 problem when
  /// there is none.
  package func app(_ context: ServerContext) async throws -> (Kalends.Client, EventStore, CallerEvidence) {
    let caller = try await caller(of: context)
    switch caller {
    case .app(let client, let session, let evidence, let holder):
      if ended.withLock({ $0.contains(holder) }) {
        throw Problem(
          status: .unauthorized, title: "session ended",
          detail: "\(client.id)'s access was changed from outside the app: restart it", category: .accessRefused)
      }
      return (client, session, evidence)
    case .owner:
      throw Problem(
        status: .forbidden, title: "not an app",
        detail: "the store's owner uses the kalends command, not the app routes", category: .accessRefused)
    case .unidentified(let reason):
      throw Problem(status: .unauthorized, title: "caller not identified", detail: reason, category: .accessRefused)
    }
  }

  /// An identified app's use of a service: its session, and what is needed to ask the person when
  /// the use asks by itself (docs/privacy.md).
  package struct AppUse: Sendable {
    package let client: Kalends.Client
    package let session: EventStore
    package let evidence: CallerEvidence
    /// What the app is shown of the log's positions.
    package let positions: AppPositions
    package let service: Service
    package let reading: Bool
    /// Whether this use may ask at all: an app built for iOS 5, or a read of one built for iOS 17
    /// (the write-only upgrade). Other apps' uses never look.
    let mayAsk: Bool
    /// Whether the app's first use of the service is its request for full access: a program that
    /// speaks a protocol without a way to ask (CalDAV, CardDAV) is asked for when it first reaches
    /// for what it was never given or refused.
    let firstUseAsks: Bool
  }

  /// The identified app at the other end of `context`'s connection, about to use `service` (to
  /// read when `reading`); pass it to ``withStore(_:_:)``.
  package func app(
    _ context: ServerContext, using service: Service, reading: Bool, firstUseAsks: Bool = false
  ) async throws -> AppUse {
    use(try await app(context), of: service, reading: reading, firstUseAsks: firstUseAsks)
  }

  /// The use of `service` (to read when `reading`) by an app already identified
  /// (``app(_:)``): for a front end that must look before it knows the service.
  package func use(
    _ app: (Kalends.Client, EventStore, CallerEvidence), of service: Service, reading: Bool,
    firstUseAsks: Bool = false
  ) -> AppUse {
    let (client, session, evidence) = app
    let mayAsk = client.sdk < 6 || (reading && client.sdk >= Kalends.Client.currentSDK)
    return AppUse(
      client: client, session: session, evidence: evidence, positions: positionSeal.view(for: client.id),
      service: service, reading: reading, mayAsk: mayAsk, firstUseAsks: firstUseAsks)
  }

  /// What the app `client` is shown of the log's positions.
  package func positions(for client: String) -> AppPositions { positionSeal.view(for: client) }

  /// What the app identified on `channel` (by its last request) is shown of the log's positions;
  /// `nil` when no app was identified there.
  func positions(on channel: any Channel) -> AppPositions? {
    guard case .app(let client, _, _, _)? = callers.withLock({ $0[ObjectIdentifier(channel)] }) else { return nil }
    return positionSeal.view(for: client.id)
  }

  /// Runs `body` with the store off the event loop for `use`, after asking the person — on a thread
  /// of its own, through the prompt desk — when iOS would ask by itself. The look at the app's state
  /// is made in the same hop as `body`: a use that asks nothing costs no more than one that cannot.
  package func withStore<T: Sendable>(_ use: AppUse, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    if use.firstUseAsks {
      let (session, service, evidence, prompts) = (use.session, use.service, use.evidence, self.prompts)
      if try await withStore({ try session.authorizationStatus(for: service) == .notDetermined }) {
        _ = try await onOwnThread {
          try session.requestFullAccess(to: service, prompter: DeskPrompter(channel: prompts, evidence: evidence))
        }
      }
    }
    guard use.mayAsk else { return try await withStore(body) }
    let session = use.session
    let (service, reading) = (use.service, use.reading)
    let first: T?? = try await withStore {
      try session.wouldAskImplicitly(service, reading: reading) ? nil : .some(try body())
    }
    if let done = first { return done! }
    let prompts = self.prompts
    let evidence = use.evidence
    try await onOwnThread {
      try session.askImplicitly(service, reading: reading, prompter: DeskPrompter(channel: prompts, evidence: evidence))
    }
    return try await withStore(body)
  }

  /// Checks that `context`'s connection is the person's channel, for `what`. An app's attempt is
  /// refused and recorded as its own (`ownerActionRefused`); anyone else gets 401.
  /// Returns the evidence of the person's process, which the person's decisions record.
  @discardableResult
  func requireOwner(_ context: ServerContext, _ what: String) async throws -> CallerEvidence {
    switch try await caller(of: context) {
    case .owner(let evidence): return evidence
    case .app(_, let session, _, _):
      _ = try await withStore { try session.requireOwner(what) }
      throw Problem(
        status: .forbidden, title: "access refused", detail: "only the person may \(what)", category: .accessRefused)
    case .unidentified(let reason):
      throw Problem(status: .unauthorized, title: "caller not identified", detail: reason, category: .accessRefused)
    }
  }

  /// Ends the session of the app process on `channel`: its access was changed from outside.
  package func endSession(of channel: any Channel) {
    guard case .app(_, _, _, let holder) = callers.withLock({ $0[ObjectIdentifier(channel)] }) else { return }
    _ = ended.withLock { $0.insert(holder) }
  }

  private func caller(of context: ServerContext) async throws -> Caller {
    let channel = context.channel
    let key = ObjectIdentifier(channel)
    let known = callers.withLock { $0[key] }
    if context.isNetwork {
      // Over TCP each request names its app by its token, checked against the stored tokens every
      // time: a revoked token stops working at once, also on an open connection.
      let caller = try await identify(channel, presenting: context.bearer, known: known)
      if case .app = caller { try remember(caller, for: channel, replacing: true) }
      return caller
    }
    if let secret = context.bearer {
      // An app the kernel cannot name (a script: its process is its interpreter) presents a token
      // the person made for it; the kernel's word about the process still decides that it is the
      // owner's, and is recorded with the token.
      guard let peer = await PeerEvidence.gather(from: channel, on: identification, digests: digests) else {
        return .unidentified("the kernel gave no credentials for this connection")
      }
      guard peer.evidence.uid == ownerUID else {
        let (owner, evidence) = (owner, peer.evidence)
        try await withStore { try self.unidentified.refuse(evidence, in: owner) }
        return .unidentified("uid \(peer.evidence.uid ?? 0) is not the store owner's (\(ownerUID))")
      }
      let caller = try await identify(channel, presenting: secret, known: known, peer: peer.evidence)
      if case .app = caller { try remember(caller, for: channel, replacing: true) }
      return caller
    }
    if let known { return known }
    return try remember(try await identify(channel), for: channel, replacing: false)
  }

  /// Keeps `caller` as the caller of `channel` until the connection closes; returns the caller kept.
  /// A connection of an app takes one of the app's connection slots (``connectionSlots``) until
  /// it closes; an app holding all of them is refused with `429` (and the connection closed).
  @discardableResult
  private func remember(_ caller: Caller, for channel: any Channel, replacing: Bool) throws -> Caller {
    let key = ObjectIdentifier(channel)
    let (kept, isNew) = callers.withLock { callers -> (Caller, Bool) in
      if let known = callers[key], !replacing { return (known, false) }
      let isNew = callers[key] == nil
      callers[key] = caller
      return (caller, isNew)
    }
    guard isNew else { return kept }
    var taken: CallerSlots.Slot?
    if case .app(let client, _, _, _) = caller {
      taken = connectionSlots.take(for: client.id)
      if taken == nil {
        callers.withLock { callers in callers[key] = nil }
        throw Problem(
          status: .tooManyRequests, title: "too many connections",
          detail: "\(client.id) holds \(connectionSlots.limit) connections to the server already: close one",
          category: .conflict)
      }
    }
    // Counted among the app's own connections from now on, not among those of its network.
    if taken != nil { channel.pipeline.fireUserInboundEventTriggered(CallerIdentified()) }
    let slot = taken
    channel.closeFuture.whenComplete { [weak self] _ in
      self?.callers.withLock { callers in callers[key] = nil }
      slot?.free()
    }
    return kept
  }

  /// The app whose live token is `secret`, for a request on the TCP connection `channel` (or on the
  /// Unix socket, by the process `peer` the kernel describes); the connection's earlier caller
  /// `known` keeps its session while it presents the same token.
  private func identify(
    _ channel: any Channel, presenting secret: String?, known: Caller?, peer: CallerEvidence? = nil
  ) async throws -> Caller {
    let owner = owner
    let address = channel.remoteAddress.map(Self.describe) ?? "unknown"
    return try await withStore { () throws -> Caller in
      guard let secret else {
        try self.unidentified.refuse(CallerEvidence(address: address, tokenID: nil), in: owner)
        return .unidentified("no app token: send Authorization: Bearer TOKEN (kalends client token create)")
      }
      guard let token = try owner.token(presenting: secret) else {
        let presented = ClientToken.id(ofSecret: secret)
        let evidence =
          peer?.presenting(tokenID: presented) ?? CallerEvidence(address: address, tokenID: presented)
        try self.unidentified.refuse(evidence, in: owner)
        return .unidentified("the app token is not a live token (never created, or revoked)")
      }
      if case .app(_, _, let evidence, _) = known, evidence.tokenID == token.id, let known { return known }
      guard let client = try owner.client(withID: token.client) else {
        return .unidentified("the token's app is not registered")
      }
      let connection = UInt64.random(in: 1...UInt64.max)
      let evidence =
        peer?.presenting(tokenID: token.id, connection: connection)
        ?? CallerEvidence(address: address, tokenID: token.id, connection: connection)
      return .app(
        client, try owner.session(for: client.id, identifiedBy: evidence), evidence, .connection(connection))
    }
  }

  /// `ADDRESS:PORT` (IPv6 in brackets).
  static func describe(_ address: SocketAddress) -> String {
    let host = address.ipAddress ?? "unknown"
    let port = address.port.map(String.init) ?? "?"
    return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// Whether `peer` is the person's channel: the server's own user, running the server's own
  /// executable (its resolved path and its bytes), confined exactly as the server is (the same mount
  /// and user namespaces and root directory), with no Flatpak id. A file's digest alone proves
  /// nothing — a byte-identical copy of `kalends` is public — and a sandboxed process has its own
  /// namespaces, so no app in a sandbox reaches this channel, whatever it ships. What it cannot
  /// prove is written in docs/server.md: a process of the same user outside any sandbox can
  /// edit the store's files anyway.
  static func isPersonsChannel(_ peer: PeerEvidence.Peer) -> Bool {
    let own = PeerEvidence.ownProcess
    let evidence = peer.evidence
    guard evidence.uid == own.uid, evidence.flatpakApp == nil,
      peer.confinement.isSame(as: PeerEvidence.ownConfinement),
      let path = evidence.executable, path == own.executable,
      let digest = evidence.executableSHA256, digest == own.executableSHA256
    else { return false }
    return true
  }

  private func identify(_ channel: any Channel) async throws -> Caller {
    guard let peer = await PeerEvidence.gather(from: channel, on: identification, digests: digests) else {
      return .unidentified("the kernel gave no credentials for this connection")
    }
    let evidence = peer.evidence
    let owner = owner
    let uid = ownerUID
    if Self.isPersonsChannel(peer) { return .owner(evidence) }
    return try await withStore { () throws -> Caller in
      guard evidence.uid == uid else {
        try self.unidentified.refuse(evidence, in: owner)
        return .unidentified("uid \(evidence.uid ?? 0) is not the store owner's (\(uid))")
      }
      guard let client = try owner.client(identifiedBy: evidence) else {
        try self.unidentified.refuse(evidence, in: owner)
        let executable = evidence.executable ?? "an unreadable executable"
        guard evidence.executableSHA256 != nil || evidence.flatpakApp != nil else {
          return .unidentified(
            "\(executable) could not be hashed (unreadable, or larger than \(DigestCache.maximumSize >> 20) MiB)")
        }
        let pinnedApps = try owner.clients().filter { client in
          client.requirement?.executable == evidence.executable && evidence.executable != nil
        }
        // Two apps on one file (registered before that was refused): neither is this process.
        if pinnedApps.count > 1 {
          return .unidentified(
            "\(executable) is registered for \(pinnedApps.map(\.id).joined(separator: " and ")): a process that "
              + "matches two apps is neither — give each its own executable, or identify one by a token")
        }
        // Rebuilt since it was registered: say so, and how to pin the new file.
        if let pinned = pinnedApps.first {
          return .unidentified(
            "\(executable) is registered as \(pinned.id), but the file changed since (its SHA-256 differs) — "
              + "if you rebuilt it, pin the new file: kalends client update \(pinned.id) --executable \(executable)")
        }
        return .unidentified("no registered app's requirement matches \(executable)")
      }
      var identified = evidence
      identified.connection = UInt64.random(in: 1...UInt64.max)
      let pid = evidence.pid ?? 0
      let process = SessionHolder.process(pid: pid, start: PeerEvidence.startTime(of: pid) ?? 0)
      return .app(client, try owner.session(for: client.id, identifiedBy: identified), identified, process)
    }
  }
}
