import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdCore
import Kalends
import KalendsCommandSupport
import Logging
import NIOCore
import NIOPosix
import Platform
import ServiceLifecycle
import UnixSignals

extension KalendsCommand {
  /// `kalends serve`: the store server.
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Serve the store to apps over a Unix socket, identifying each by its process.",
      discussion: """
        The server owns the store: apps reach it only through the socket (mode 0600, created with \
        the store owner's umask narrowed to 0177). A connection is taken for a registered app when its \
        peer runs as this user and its executable (path and SHA-256 of the running file) or Flatpak id \
        satisfies the app's code requirement (client register --executable / --flatpak); its calls \
        are then that app's, with the app's access checked and refusals recorded. Anyone else gets \
        401, and callerUnidentified records (per caller and minute) hold the kernel's evidence. An app's \
        access request waits for the person, who answers with kalends prompts (a process running \
        this same kalends executable is the person's channel); after --prompt-timeout nothing is \
        decided and the request is recorded as a timeout. With --listen it also serves TCP, where \
        an app presents a token the person created (client token create), over TLS when \
        --tls-certificate and --tls-key are given (in a kalends built with the TLS trait: swift \
        build --traits TLS); an address other than loopback needs TLS. \
        It applies the retention policy (kalends retention) at start and every hour. \
        Routes in docs/server.md. Prints 'listening on PATH' (and 'listening on tcp HOST:PORT') \
        once it accepts connections; SIGTERM or SIGINT stops it gracefully. Started by systemd's \
        socket activation (LISTEN_PID, LISTEN_FDS) it serves the Unix socket handed over, which must \
        be bound to a path of this user with mode 0600 (SocketMode=0600), and leaves the socket in place.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "The Unix socket to listen on (default $XDG_RUNTIME_DIR/kalends/STORE-ID.sock).", valueName: "path"))
    var socket: String?

    @Option(
      help: ArgumentHelp(
        "How long an app's access request waits for the person's answer before it is recorded as a timeout.",
        valueName: "seconds"))
    var promptTimeout = 60

    @Option(
      help: ArgumentHelp(
        "Where the person answers apps' access requests: socket (kalends prompts) or tty (this terminal).",
        valueName: "channel"))
    var prompt: PromptOption = .socket

    @Option(help: ArgumentHelp("How many connections are served at once; more wait.", valueName: "n"))
    var maxConnections = 512

    @Option(
      help: ArgumentHelp("How long a connection may stay idle before it is closed.", valueName: "seconds"))
    var idleTimeout = 60

    @Option(
      help: ArgumentHelp(
        "How long a request's headers and body may take to arrive (a slow client is closed).",
        valueName: "seconds"))
    var headerTimeout = 10

    @Option(
      help: ArgumentHelp(
        "Also serve TCP at [HOST:]PORT (host 127.0.0.1 unless given; port 0 picks one); apps present tokens.",
        valueName: "address"))
    var listen: String?

    @Option(help: ArgumentHelp("The TLS certificate chain for --listen (PEM).", valueName: "path"))
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("The TLS private key for --listen (PEM).", valueName: "path"))
    var tlsKey: String?

    func run() async throws {
      try global.requireOwner("serve the store")
      let store = try GlobalOptions.open(global.storePath)
      let activated = try ActivatedSocket.inherited()
      let path: String
      if let activated {
        if let socket, socket != activated.path {
          throw CLIError(
            message: "--socket \(socket) is not the socket the service manager handed over (\(activated.path))",
            status: .usage)
        }
        path = activated.path
      } else {
        path = try ServerSocket.path(socket, storeID: store.id, create: true)
        try Self.clearStaleSocket(path)
      }
      for (option, value) in [
        ("--prompt-timeout", promptTimeout), ("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout),
      ] where !(1...86_400).contains(value) {
        throw CLIError.invalidInput("\(option) takes 1 to 86400 seconds")
      }
      guard (1...65_536).contains(maxConnections) else {
        throw CLIError.invalidInput("--max-connections takes 1 to 65536")
      }
      let network = try listen.map { try NetworkListener(address: $0, certificate: tlsCertificate, key: tlsKey) }
      if listen == nil, tlsCertificate != nil || tlsKey != nil {
        throw CLIError.invalidInput("--tls-certificate and --tls-key serve --listen: give it too")
      }
      let server = try StoreServer(
        owner: EventStore(store: store), promptTimeout: .seconds(promptTimeout), onTerminal: prompt == .tty)
      let previous = umask(0o177)
      let headerDeadline = TimeAmount.seconds(Int64(headerTimeout))
      let http = HTTP1Channel.Configuration(
        additionalChannelHandlers: [
          NetworkSlotsHandler(slots: server.networkSlots), RequestTimeoutHandler(deadline: headerDeadline),
        ],
        idleTimeout: .seconds(Int64(idleTimeout)),
        httpDecoderConfiguration: .init(
          maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
      let logger = ServerLogger.make("kalends.serve")
      let announcer = ListenerAnnouncer(expected: network == nil ? 1 : 2)
      var services: [any ServiceLifecycle.Service] = []
      if let activated {
        umask(previous)
        services.append(
          ActivatedServer(
            socket: activated, responder: server.router().buildResponder(), http: http, maxConnections: maxConnections,
            logger: logger,
            onRunning: {
              announcer.bound("listening on \(path) (socket activation)")
            }))
      } else {
        var configuration = ApplicationConfiguration(address: .unixDomainSocket(path: path))
        configuration.availableConnectionsDelegate = MaximumAvailableConnections(maxConnections)
        services.append(
          Application(
            router: server.router(), server: .http1(configuration: http), configuration: configuration,
            onServerRunning: { _ in
              umask(previous)
              announcer.bound("listening on \(path)")
            }, logger: logger))
      }
      if let network {
        var tcp = ApplicationConfiguration(address: .hostname(network.host, port: network.port))
        tcp.availableConnectionsDelegate = MaximumAvailableConnections(maxConnections)
        let builder: HTTPServerBuilder =
          try network.tls.map { try $0.builder(http) } ?? .http1(configuration: http)
        let scheme = network.tls == nil ? "tcp" : "tls"
        services.append(
          Application(
            router: server.router(), server: builder, configuration: tcp,
            onServerRunning: { channel in
              let bound = channel.localAddress.map(StoreServer.describe) ?? "\(network.host):\(network.port)"
              announcer.bound("listening on \(scheme) \(bound)")
            }, logger: logger))
      }
      // The person's retention policy: removed items lose their content on time.
      let owner = server.owner
      services.append(
        PeriodicWork(interval: .seconds(3_600), logger: logger, failure: "retention could not be applied") {
          for erasure in try await server.withStore({ try owner.applyRetention() }) {
            logger.info(
              "retention erased \(erasure.item)",
              metadata: ["records": "\(erasure.erasedPositions.count)", "position": "\(erasure.record!)"])
          }
        })
      // A minute's later refusals and requests reach the log, and its proofs, within seconds of
      // the minute's end, with the refused process's evidence, not with whatever write comes next.
      services.append(
        PeriodicWork(interval: .seconds(5), logger: logger, failure: "refusal counts could not be written") {
          _ = try await server.withStore { try owner.store.flushEndedRefusals() }
        })
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
        // A listener could not bind: nothing was announced, and the status says what kind of
        // failure it is (docs/server.md).
        try? server.unidentified.flush(to: server.owner)
        try? await server.pool.shutdownGracefully()
        throw CLIError(
          message: "cannot listen (\(error)) — is another server on that address? choose another with --listen",
          status: .conflict)
      }
      try server.unidentified.flush(to: server.owner)
      try await server.pool.shutdownGracefully()
      try await server.identification.shutdownGracefully()
    }

    /// Removes a socket left by a server that is gone; refuses when one still answers there, or
    /// when the path is something else.
    static func clearStaleSocket(_ path: String) throws {
      guard let info = FileStatus(path: path, followingLinks: false) else { return }
      guard info.isSocket else {
        throw CLIError(message: "\(path) exists and is not a socket", status: .usage)
      }
      if let probe = try UnixSocket.connect(to: path) {
        close(probe)
        throw CLIError(message: "a server already listens on \(path)", status: .usage)
      }
      unlink(path)
    }
  }
}

/// `kalends serve --prompt`.
enum PromptOption: String, ExpressibleByArgument, CaseIterable {
  case socket
  case tty
}
