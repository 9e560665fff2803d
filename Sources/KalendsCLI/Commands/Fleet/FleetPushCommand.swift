import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFleet
import KalendsFormats

extension KalendsCommand.Fleet {
  /// `kalends fleet push`: publishes the store's records the stream does not hold yet.
  struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "push",
      abstract: "Publish the store's records the organisation's stream does not hold yet.",
      discussion: """
        Reads where the stream left off from the subject's last bundle, then publishes the records \
        after it up to the head, each bundle with the message id STORE:FROM-TO and on the condition \
        that the subject's last message is the one before (JetStream's expected last subject \
        sequence): a second publisher of the same store id (a cloned store) is refused (exit 67) and \
        never interleaved, and publishes its latest checkpoint as the mirrors' evidence. First answers a mirror's request to send records again (kal.ORG.STORE.resend: \
        every record from the position it names to what was published). Creates the stream when it does \
        not exist (--replicas copies). Then publishes the latest checkpoint kept in the store that \
        the published records cover, when newer than the last one published, on kal.ORG.STORE.ckpt \
        with a consistency proof to the published records. Keeps where the stream stands in the store \
        (kalends status shows it).
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var connection: NATSOptions

    @Option(help: "The stream's copies when this push creates it (3 for a three-node cluster).")
    var replicas = 1

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      guard (1...5).contains(replicas) else {
        CommandRunner.fail("--replicas takes 1 to 5 (JetStream's limit)", status: .usage)
      }
      let store = try global.openStore(for: "publish the store's records")
      let subjects = connection.subjects()
      let publisher = FleetPublisher(
        store: store, subjects: subjects, nats: connection.connect(inbox: subjects.inbox(of: store.id)),
        replicas: replicas)
      let report: FleetPublisher.Report
      do { report = try publisher.push() } catch {
        switch error {
        case .anotherPublisher, .unexpectedBundle, .moved, .unexpectedStream:
          CommandRunner.fail(error.description, status: .conflict)
        case .nats: CommandRunner.fail(error.description, status: .storage)
        case .store(let failure): throw failure
        }
      }
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("store", .string(store.id.description)), ("subject", .string(subjects.records(of: store.id))),
            ("publishedBefore", .number(Double(report.publishedBefore.rawValue))),
            ("published", .number(Double(report.published.rawValue))), ("bundles", .number(Double(report.bundles))),
            ("resent", .number(Double(report.resent))),
            ("checkpoint", report.checkpoint.map { .number(Double($0)) } ?? .null),
          ]).rendered())
      case .table:
        if report.resent > 0 { print("sent \(report.resent) records again, as a mirror asked") }
        if let size = report.checkpoint { print("published the checkpoint of \(size) records") }
        print(
          report.bundles == 0
            ? "the stream holds all \(report.published.rawValue) records of store \(store.id)"
            : "published records \(report.publishedBefore.rawValue + 1)–\(report.published.rawValue) of store "
              + "\(store.id) in \(report.bundles) bundles to \(subjects.records(of: store.id))")
      }
    }
  }
}
