import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFleet

extension Harness {
  /// `kalends-harness fleet-raw`: the yardstick of `tools/fleet-cluster --throughput` — a store's records in
  /// the very bundles `kalends fleet push` makes, published to JetStream with nothing else: no
  /// reading of where the stream stands, no condition on the subject's last message, no checkpoint,
  /// no position kept in the store.
  struct FleetRaw: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "fleet-raw",
      abstract: "Publish a store's records as fleet push's bundles, and nothing more.",
      discussion: """
        Opens the store read only, creates the organisation's stream as fleet push does (--replicas \
        copies) and publishes every record in bundles aligned to 256 positions, each with its \
        message id, one at a time, each waiting for its acknowledgement, as fleet push does. Prints \
        the records published.
        """)

    @Option(help: "The NATS server(s), several separated by commas.") var nats: String
    @Option(help: "The organisation: the stream KAL_ORG.") var org: String
    @Option(help: "The stream's copies when this creates it.") var replicas = 1
    @Option(help: "The store whose records are published.") var store: String
    @Option(help: "How long each publish may wait for its acknowledgement, in seconds.") var timeout = 5.0

    func run() throws {
      let opened = try Store.open(at: store, options: StoreOptions(readOnly: true))
      let subjects = try FleetSubjects(organisation: org)
      let connection = try NATSConnection(url: nats, timeout: .milliseconds(Int64(timeout * 1000)))
      try connection.addStream(
        name: subjects.stream, subjects: subjects.streamSubjects, replicas: replicas, duplicateWindow: .seconds(120))
      let head = try opened.head().position
      let subject = subjects.records(of: opened.id)
      var first = LogPosition(1)
      while first <= head {
        let end = RecordBundle.end(from: first, head: head)
        let bundle = RecordBundle(
          store: opened.id, first: first, records: try opened.recordBytes(from: first, through: end))
        _ = try connection.publish(bundle.bytes, to: subject, messageID: bundle.messageID)
        first = end.next
      }
      print(head.rawValue)
    }
  }
}
