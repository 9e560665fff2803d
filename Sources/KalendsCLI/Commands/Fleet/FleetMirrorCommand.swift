import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFleet
import KalendsFormats

extension KalendsCommand.Fleet {
  /// `kalends fleet mirror`: holds and verifies the organisation's stores' records.
  struct Mirror: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "mirror",
      abstract: "Hold and verify the records the organisation's stores publish.",
      discussion: """
        A durable consumer of kal.ORG.*.rec: each bundle's records that follow those held are checked \
        as kalends verify checks a store (positions, hash chain, each record's hash, the store's \
        creation first, who may make each record, the Merkle tree) and committed to the mirror's \
        LMDB in --dir before the message is acknowledged. Other bytes for a held position (a rewrite, \
        a fork, a cloned store) or a broken rule flags the store, with the bundle kept as evidence; a \
        bundle that skips positions is an alert of a gap. With --once, takes what the stream holds, \
        prints each store's verdict and the alerts, and exits 69 when a store is flagged; otherwise \
        runs until stopped. After each pass it puts its verdict on each store whose verdict changed in \
        the bucket KAL_ORG_verdicts (key STORE.DURABLE), with the store's latest verified checkpoint \
        cosigned by --key (a witness-type key: kalends key generate NAME --cosigner), and raises the \
        alerts of what did not come: stale (more than --checkpoint-within records past the last \
        verified checkpoint) and withheld (a checkpoint over records the stream did not give; asked \
        for again).
        """)

    @OptionGroup var connection: NATSOptions

    @Option(help: "The mirror's directory (created when missing).")
    var dir: String

    @Option(help: "The durable consumer's name.")
    var durable = "kalends-mirror"

    @Option(
      name: .customLong("enrol"),
      help: ArgumentHelp("A store's checkpoint key: STORE-ID=VKEY (repeatable).", valueName: "store=vkey"))
    var enrolments: [String] = []

    @Option(
      name: .customLong("witness"), help: ArgumentHelp("A witness's verifier key (repeatable).", valueName: "vkey"))
    var witnesses: [String] = []

    @Option(help: "How many of the witnesses must have cosigned a checkpoint (default: all).")
    var quorum: Int?

    @Option(help: ArgumentHelp("The mirror's cosigner key file, to cosign what it verified.", valueName: "file"))
    var key: String?

    @Option(
      help: ArgumentHelp(
        "Alert when a store's records run more than N past its last verified checkpoint.", valueName: "n"))
    var checkpointWithin: UInt64?

    @Flag(help: "Take what the stream holds, report and exit.")
    var once = false

    @Option(help: "The copies of the stream and of the bucket of verdicts when this creates them (3 on a cluster).")
    var replicas = 1

    @Option(help: "Seconds without a message after which --once stops.")
    var idle = 1.0

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let subjects = connection.subjects()
      let signer = try key.map { path in
        let signer = try KeyFile.read(path)
        guard signer.verifier.isCosigner else {
          throw CLIError(
            message: "--key \(path) is not a cosigner's key: kalends key generate NAME --cosigner makes one",
            status: .usage)
        }
        return signer
      }
      guard (1...5).contains(replicas) else {
        CommandRunner.fail("--replicas takes 1 to 5 (JetStream's limit)", status: .usage)
      }
      let mirror = try FleetMirror(directory: dir, subjects: subjects, trust: trust())
      let nats = connection.connect()
      let subscription: NATSPullSubscription
      let bucket: NATSKeyValue
      do {
        try nats.addStream(
          name: subjects.stream, subjects: subjects.streamSubjects, replicas: replicas, duplicateWindow: .seconds(120))
        // One that existed is the one read: refused when it is not the organisation's.
        try FleetStream.check(nats, subjects)
        subscription = try nats.pullSubscription(subject: subjects.everything, durable: durable)
        bucket = try nats.keyValue(bucket: subjects.verdicts, replicas: replicas)
      } catch let refusal as FleetStream.Refusal {
        CommandRunner.fail(refusal.description, status: .conflict)
      } catch {
        CommandRunner.fail("\(error)", status: .storage)
      }
      let wait = Duration.milliseconds(Int64(max(0.05, idle) * 1000))
      repeat {
        do {
          _ = try mirror.drain(subscription, nats: nats, idle: wait)
          try mirror.review(nats: nats, checkpointWithin: checkpointWithin)
          _ = try mirror.publishVerdicts(to: bucket, mirror: durable, signer: signer)
        } catch let error as NATSError {
          CommandRunner.fail(error.description, status: .storage)
        }
      } while !once
      let verdicts = mirror.verdicts()
      let alerts = try mirror.alertList()
      switch format {
      case .json:
        print(
          JSONValue.object([
            (
              "stores",
              .array(
                verdicts.map { verdict in
                  .object([
                    ("store", .string(verdict.store.description)),
                    ("verifiedSize", .number(Double(verdict.verifiedSize))), ("head", .string(verdict.head.hex)),
                    ("flagged", .bool(verdict.flagged)),
                    ("checkpoint", verdict.checkpoint.map { .number(Double($0)) } ?? .null),
                  ])
                })
            ),
            (
              "alerts",
              .array(
                alerts.map { alert in
                  .object([
                    ("kind", .string(alert.kind.rawValue)),
                    ("store", alert.store.map { .string($0.description) } ?? .null),
                    ("position", .number(Double(alert.position.rawValue))), ("message", .number(Double(alert.message))),
                    ("detail", .string(alert.detail)), ("evidenceBytes", .number(Double(alert.evidence.count))),
                    ("note", alert.note.map { .string($0.description) } ?? .null),
                  ])
                })
            ),
          ]).rendered())
      case .table:
        for verdict in verdicts {
          print(
            "\(verdict.store)  \(verdict.flagged ? "FLAGGED" : "verified")  \(verdict.verifiedSize) records  "
              + "head \(verdict.head.hex.prefix(16))…"
              + (verdict.checkpoint.map { "  checkpoint \($0) verified" } ?? ""))
        }
        for alert in alerts {
          print(
            "alert \(alert.kind.rawValue) \(alert.store?.description ?? "-") at \(alert.position.rawValue): \(alert.detail)"
          )
        }
      }
      if verdicts.contains(where: \.flagged) {
        CommandRunner.fail("a store's records broke the log's rules: see the alerts", status: .integrity)
      }
    }

    /// The enrolled keys and witnesses; a malformed one exits 64.
    func trust() -> FleetTrust {
      var enrolled: [StoreID: NoteVerifier] = [:]
      for enrolment in enrolments {
        let parts = enrolment.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let store = StoreID(uuid: String(parts[0])),
          let verifier = try? NoteVerifier(String(parts[1]))
        else {
          CommandRunner.fail(
            "--enrol takes STORE-ID=VKEY (kalends status, kalends key verifier), not \(enrolment)", status: .usage)
        }
        enrolled[store] = verifier
      }
      var keys: [NoteVerifier] = []
      for witness in witnesses {
        guard let verifier = try? NoteVerifier(witness) else {
          CommandRunner.fail("--witness takes a verifier key, not \(witness)", status: .usage)
        }
        keys.append(verifier)
      }
      return FleetTrust(enrolled: enrolled, witnesses: keys, quorum: quorum)
    }
  }
}
