import Hummingbird
import HummingbirdCore
package import Kalends
import KalendsFormats
import Logging
import NIOCore
import NIOPosix
import Platform
import ServiceLifecycle
import UnixSignals

extension StoreServer {
  /// Serves `store` to apps until SIGTERM or SIGINT, then stops gracefully: open change streams
  /// end, counted refusals are written, a socket it created is removed.
  ///
  /// `announce` is given the `listening on …` lines (the Unix socket's, and the TCP listener's
  /// with its bound port) once every listener accepts connections, and never when one cannot
  /// bind. The socket is created with the owner's umask narrowed to 0177 (mode 0600).
  ///
  /// - Throws: ``ServerError`` for a setting it cannot use or a listener that cannot bind (then
  ///   nothing was announced); `StoreError` from the store.
  package static func run(
    _ store: Store, configuration: ServerConfiguration, announce: @escaping @Sendable ([String]) -> Void
  ) async throws {
    let activated = try ActivatedSocket.inherited()
    let path: String
    if let activated {
      if let socket = configuration.socket, socket != activated.path {
        throw ServerError(
          message: "--socket \(socket) is not the socket the service manager handed over (\(activated.path))",
          category: .usage)
      }
      path = activated.path
    } else {
      path = try ServerSocket.path(
        configuration.socket, storeID: store.id, defaultStore: configuration.defaultStore, create: true)
      try ServerSocket.clearStale(path)
    }
    if configuration.listen == nil, configuration.tlsCertificate != nil || configuration.tlsKey != nil {
      throw ServerError.invalidInput("--tls-certificate and --tls-key serve --listen: give it too")
    }
    let network = try configuration.listen.map {
      try NetworkListener(address: $0, certificate: configuration.tlsCertificate, key: configuration.tlsKey)
    }
    let server = try StoreServer(
      owner: EventStore(store: store), promptTimeout: configuration.promptTimeout,
      onTerminal: configuration.promptsOnTerminal, frontEnds: configuration.frontEnds,
      notifier: configuration.notifier)
    let previous = umask(0o177)
    let http = HTTP1Channel.Configuration(
      additionalChannelHandlers: [
        NetworkSlotsHandler(slots: server.networkSlots, waiting: server.waitingSlots),
        RequestTimeoutHandler(deadline: TimeAmount(configuration.headerTimeout)),
      ],
      idleTimeout: TimeAmount(configuration.idleTimeout),
      httpDecoderConfiguration: .init(
        maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
    let logger = ServerLogger.make("kalends.serve")
    let announcer = ListenerAnnouncer(expected: network == nil ? 1 : 2, announce: announce)
    var services: [any ServiceLifecycle.Service] = []
    if let activated {
      umask(previous)
      services.append(
        ActivatedServer(
          socket: activated, responder: server.router().buildResponder(), http: http,
          maxConnections: configuration.maxConnections, logger: logger,
          onRunning: { announcer.bound("listening on \(path) (socket activation)") }))
    } else {
      var unix = ApplicationConfiguration(address: .unixDomainSocket(path: path))
      unix.availableConnectionsDelegate = MaximumAvailableConnections(configuration.maxConnections)
      services.append(
        Application(
          router: server.router(), server: .http1(configuration: http), configuration: unix,
          onServerRunning: { _ in
            umask(previous)
            announcer.bound("listening on \(path)")
          }, logger: logger))
    }
    if let network {
      var tcp = ApplicationConfiguration(address: .hostname(network.host, port: network.port))
      tcp.availableConnectionsDelegate = MaximumAvailableConnections(configuration.maxConnections)
      let builder: HTTPServerBuilder = try network.tls.map { try $0.builder(http) } ?? .http1(configuration: http)
      let scheme = network.tls == nil ? "tcp" : "tls"
      services.append(
        Application(
          router: server.router(), server: builder, configuration: tcp,
          onServerRunning: { channel in
            let bound = channel.localAddress.map(StoreServer.describe) ?? "\(network.host):\(network.port)"
            announcer.bound("listening on \(scheme) \(bound)")
          }, logger: logger))
    }
    services += server.periodicWork(configuration, logger: logger)
    let store = server.owner.store
    for companion in configuration.companions {
      services.append(
        PeriodicWork(interval: companion.interval, logger: logger, failure: companion.failure) {
          switch companion.work {
          case .blocking(let work):
            if let line = try await server.onOwnThread({ try work(store) }) { logger.info("\(line)") }
          case .awaiting(let work):
            for line in try await work(store) { logger.info("\(line)") }
          }
        })
    }
    if let notifier = configuration.notifier {
      services.append(
        AlarmService(owner: server.owner, notifier: notifier, logger: logger) { work in try await server.withStore(work)
        })
    }
    // A socket the service manager handed over is its own: it keeps listening there.
    defer { if activated == nil { unlink(path) } }
    let group = ServiceGroup(
      configuration: .init(
        services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger))
    do {
      try await group.run()
    } catch  where !announcer.isAnnounced {
      // A listener could not bind: nothing was announced, and the category says what kind of
      // failure it is (docs/server.md).
      try? server.unidentified.flush(to: server.owner)
      try? await server.pool.shutdownGracefully()
      throw ServerError(
        message: "cannot listen (\(error)) — is another server on that address? choose another with --listen",
        category: .conflict)
    }
    try server.unidentified.flush(to: server.owner)
    // The counts of the apps' reads of the minute under way, held in memory until now.
    try server.owner.store.flushUses()
    try await server.pool.shutdownGracefully()
    try await server.identification.shutdownGracefully()
  }

  /// What the server does on a timer: the person's retention policy (removed items lose their
  /// content on time), and the refusals, requests and reads counted in a minute written within seconds
  /// of the minute's end, with the refused process's evidence, not with whatever write comes next.
  private func periodicWork(_ configuration: ServerConfiguration, logger: Logger) -> [any ServiceLifecycle.Service] {
    let owner = self.owner
    return [
      PeriodicWork(
        interval: configuration.retentionInterval, logger: logger, failure: "retention could not be applied"
      ) {
        for erasure in try await self.withStore({ try owner.privacySettings().applyRetention() }) {
          logger.info(
            "retention erased \(erasure.item)",
            metadata: ["records": "\(erasure.erasedPositions.count)", "position": "\(erasure.record!)"])
        }
      },
      PeriodicWork(
        interval: configuration.refusalFlushInterval, logger: logger,
        failure: "refusal and use counts could not be written"
      ) {
        _ = try await self.withStore { try owner.store.flushEndedTallies() }
      },
    ]
  }
}

extension TimeAmount {
  /// The amount of `duration`, to the nanosecond.
  fileprivate init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
