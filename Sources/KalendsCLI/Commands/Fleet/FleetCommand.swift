import ArgumentParser
import KalendsCommandSupport
import KalendsFleet

extension KalendsCommand {
  /// `kalends fleet`: many stores' audit in one place, over NATS JetStream.
  struct Fleet: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "fleet",
      abstract: "Mirror stores' logs over NATS JetStream and verify them in one place.",
      discussion: """
        Each store publishes its records to its organisation's stream (KAL_ORG), on the subject \
        kal.ORG.STORE.rec, in bundles of up to 256 positions that end at multiples of 256; a mirror \
        holds every store's records in its own LMDB and verifies them as kalends verify does, store \
        by store. The stores stay the source of truth: a bundle lost or altered in the stream is \
        found by the mirror. NATS failures exit 70, a second publisher of one store id 67, a mirror \
        that flagged a store 69. See docs/fleet.md.
        """,
      subcommands: [Push.self, Mirror.self, Audit.self])
  }
}

/// The NATS options of the fleet's commands.
struct NATSOptions: ParsableArguments {
  @Option(help: "The NATS server(s): nats://HOST:PORT, several separated by commas.")
  var nats: String

  @Option(help: "A NATS credentials file (JWT and seed).")
  var creds: String?

  @Option(
    help: ArgumentHelp(
      "Certificate authorities (PEM) the NATS servers' TLS certificates must chain to; TLS is used with "
        + "this or a tls:// URL.", valueName: "file"))
  var ca: String?

  @Option(
    help: ArgumentHelp(
      "A client certificate (PEM chain) to present over TLS, for servers that require one or map it to a user.",
      valueName: "file"))
  var cert: String?

  @Option(help: ArgumentHelp("The private key (PEM) of --cert.", valueName: "file"))
  var certKey: String?

  @Option(help: "The organisation: the stream KAL_ORG and the subjects kal.ORG.*.")
  var org: String

  @Option(
    help: ArgumentHelp(
      "How long connecting, and each publish or JetStream request, may wait for its answer.", valueName: "seconds"))
  var timeout = 5.0

  /// The organisation's subjects; a name that cannot be one exits 64.
  func subjects() -> FleetSubjects {
    do { return try FleetSubjects(organisation: org) } catch {
      CommandRunner.fail(error.description, status: .usage)
    }
  }

  /// A connection to the servers, its answers coming below `inbox` (`_INBOX` when `nil`); a
  /// failure exits 70, a timeout outside 0.1–600 seconds 64.
  func connect(inbox: String? = nil) -> NATSConnection {
    guard (0.1...600).contains(timeout) else {
      CommandRunner.fail("--timeout takes 0.1 to 600 seconds", status: .usage)
    }
    guard (cert == nil) == (certKey == nil) else {
      CommandRunner.fail("--cert and --cert-key go together", status: .usage)
    }
    do {
      return try NATSConnection(
        url: nats, credentials: creds, trustedCertificates: ca,
        clientCertificate: cert.flatMap { chain in certKey.map { (chain, $0) } }, inboxPrefix: inbox,
        timeout: .milliseconds(Int64(timeout * 1000)))
    } catch {
      CommandRunner.fail(error.description, status: .storage)
    }
  }
}
