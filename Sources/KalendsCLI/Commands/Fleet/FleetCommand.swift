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

  @Option(help: "The organisation: the stream KAL_ORG and the subjects kal.ORG.*.")
  var org: String

  /// The organisation's subjects; a name that cannot be one exits 64.
  func subjects() -> FleetSubjects {
    do { return try FleetSubjects(organisation: org) } catch {
      CommandRunner.fail(error.description, status: .usage)
    }
  }

  /// A connection to the servers; a failure exits 70.
  func connect() -> NATSConnection {
    do { return try NATSConnection(url: nats, credentials: creds) } catch {
      CommandRunner.fail(error.description, status: .storage)
    }
  }
}
