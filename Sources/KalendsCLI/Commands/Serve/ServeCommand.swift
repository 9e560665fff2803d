import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsDAV
import KalendsFleet
import KalendsFormats
import KalendsServer
import KalendsSync

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
        It applies the retention policy (kalends retention) at start and every hour. While it runs, \
        the alarms of events and reminders are shown when they fire (--notify: the desktop's \
        notification service on the session bus, else notify-send, by default), each once; alarms missed while no server ran (up to a week) are shown once at start; \
        an app's prompt is announced the same way as it opens. \
        Routes in docs/server.md. Prints 'listening on PATH' (and 'listening on tcp HOST:PORT') \
        once it accepts connections; SIGTERM or SIGINT stops it gracefully. Started by systemd's \
        socket activation (LISTEN_PID, LISTEN_FDS) it serves the Unix socket handed over, which must \
        be bound to a path of this user with mode 0600 (SocketMode=0600), and leaves the socket in place. \
        With --fleet-nats and --fleet-org it also publishes the store's records to the organisation's \
        stream as kalends fleet push does, at start and every --fleet-every seconds (answering \
        mirrors' requests to send records again); kalends status shows where the stream stands.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "The Unix socket to listen on (default $XDG_RUNTIME_DIR/kalends/kalends.sock for the default store, else "
          + "…/kalends/STORE-ID.sock).", valueName: "path"))
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
      help: ArgumentHelp(
        "How much of the calendar objects' text CalDAV reports keep for the next (0: none).",
        valueName: "MiB"))
    var davCache = 64

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

    @Option(
      help: ArgumentHelp(
        "How alarms and apps' prompts are shown: desktop (the notification service on the session bus, else "
          + "notify-send when installed), none, or a program given "
          + "the summary and body.",
        valueName: "program"))
    var notify = ConfigFile.loaded.notify ?? "desktop"

    @Option(
      help: ArgumentHelp(
        "How often each account is synced (kalends account sync), at start and then after this.",
        valueName: "seconds"))
    var accountEvery = 900

    @Option(
      help: ArgumentHelp(
        "Also publish the store's records to this NATS server's stream (as kalends fleet push).", valueName: "url"))
    var fleetNats: String?

    @Option(help: ArgumentHelp("The organisation of --fleet-nats (its stream KAL_ORG).", valueName: "org"))
    var fleetOrg: String?

    @Option(help: ArgumentHelp("A NATS credentials file for --fleet-nats.", valueName: "file"))
    var fleetCreds: String?

    @Option(
      help: ArgumentHelp(
        "Certificate authorities (PEM) --fleet-nats's TLS certificates must chain to.", valueName: "file"))
    var fleetCa: String?

    @Option(help: ArgumentHelp("A client certificate (PEM chain) --fleet-nats presents over TLS.", valueName: "file"))
    var fleetCert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --fleet-cert.", valueName: "file"))
    var fleetCertKey: String?

    @Option(help: ArgumentHelp("How often the records are published.", valueName: "seconds"))
    var fleetEvery = 10

    @Flag(
      help: """
        Take WebDAV-Push registrations whose push resource is on loopback (http too): for tests, and \
        a push distributor on this machine. Private and link-local addresses stay refused.
        """)
    var pushAllowLoopback = false

    @Option(
      help: ArgumentHelp(
        "How push services reach this store's operator (VAPID's sub): a mailto: or https: address.",
        valueName: "address"))
    var pushContact = "mailto:root@localhost"

    func run() async throws {
      try global.requireOwner("serve the store")
      guard accountEvery >= 60 else {
        throw CLIError(message: "--account-every is at least 60 seconds", status: .usage)
      }
      for (option, value) in [
        ("--prompt-timeout", promptTimeout), ("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout),
      ] where !(1...86_400).contains(value) {
        throw CLIError.invalidInput("\(option) takes 1 to 86400 seconds")
      }
      guard (1...65_536).contains(maxConnections) else {
        throw CLIError.invalidInput("--max-connections takes 1 to 65536")
      }
      guard (0...16_384).contains(davCache) else { throw CLIError.invalidInput("--dav-cache takes 0 to 16384 MiB") }
      var configuration = ServerConfiguration()
      configuration.socket = socket
      configuration.defaultStore = global.isDefaultStore
      configuration.promptTimeout = .seconds(promptTimeout)
      configuration.promptsOnTerminal = prompt == .tty
      configuration.maxConnections = maxConnections
      configuration.idleTimeout = .seconds(idleTimeout)
      configuration.headerTimeout = .seconds(headerTimeout)
      configuration.listen = listen
      configuration.tlsCertificate = tlsCertificate
      configuration.tlsKey = tlsKey
      let pushHolds = PushHolds()
      configuration.frontEnds = [
        DAVFrontEnd(objectTextBytes: davCache << 20, allowsLoopbackPush: pushAllowLoopback, pushHolds: pushHolds)
      ]
      if let publisher = try fleetPublisher() { configuration.companions.append(publisher) }
      configuration.companions.append(SubscriptionCompanion.make())
      configuration.companions.append(
        PushCompanion.make(allowsLoopback: pushAllowLoopback, contact: pushContact, holds: pushHolds))
      configuration.companions.append(
        AccountCompanion.make(storePath: global.storePath, every: .seconds(accountEvery)))
      switch notify {
      case "none": configuration.notifier = nil
      case "desktop": configuration.notifier = .desktop()
      default: configuration.notifier = try .program(notify)
      }
      try await StoreServer.run(GlobalOptions.open(global.storePath), configuration: configuration) { lines in
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
      }
    }
  }
}

extension KalendsCommand.Serve {
  /// The fleet's publisher of `--fleet-nats`: a push at start and every `--fleet-every` seconds,
  /// each on a connection of its own (a NATS server restarted meanwhile is found again).
  func fleetPublisher() throws -> Companion? {
    guard let url = fleetNats else {
      if fleetOrg != nil || fleetCreds != nil || fleetCa != nil || fleetCert != nil || fleetCertKey != nil {
        throw CLIError(message: "--fleet-org and the other --fleet- options go with --fleet-nats", status: .usage)
      }
      return nil
    }
    guard let fleetOrg else { throw CLIError(message: "--fleet-nats needs --fleet-org", status: .usage) }
    guard (1...86_400).contains(fleetEvery) else {
      throw CLIError.invalidInput("--fleet-every takes 1 to 86400 seconds")
    }
    let subjects: FleetSubjects
    do { subjects = try FleetSubjects(organisation: fleetOrg) } catch {
      throw CLIError(message: error.description, status: .usage)
    }
    guard (fleetCert == nil) == (fleetCertKey == nil) else {
      throw CLIError(message: "--fleet-cert and --fleet-cert-key go together", status: .usage)
    }
    let (credentials, authorities) = (fleetCreds, fleetCa)
    let certificate = fleetCert.flatMap { chain in fleetCertKey.map { (chain: chain, key: $0) } }
    return Companion(interval: .seconds(fleetEvery), failure: "the fleet's publisher could not push") { store in
      let nats = try NATSConnection(
        url: url, credentials: credentials, trustedCertificates: authorities, clientCertificate: certificate,
        inboxPrefix: subjects.inbox(of: store.id))
      let report = try FleetPublisher(store: store, subjects: subjects, nats: nats).push()
      guard report.bundles > 0 else { return nil }
      return "published records \(report.publishedBefore.rawValue + 1)–\(report.published.rawValue) to "
        + subjects.records(of: store.id) + (report.resent > 0 ? " (\(report.resent) sent again)" : "")
    }
  }
}

/// `kalends serve --prompt`.
enum PromptOption: String, ExpressibleByArgument, CaseIterable {
  case socket
  case tty
}
