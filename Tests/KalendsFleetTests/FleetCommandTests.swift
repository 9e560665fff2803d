import Foundation
import KalendsFleet
import KalendsTestSupport
import Synchronization
import Testing

/// `kalends fleet push` and `kalends fleet mirror` through a real `nats-server` with JetStream:
/// stores publish, the mirror holds and verifies each, a cloned store is refused.
@Suite("kalends fleet: stores mirrored over NATS JetStream")
struct FleetCommandTests {
  /// The log's last position and hash (`kalends log head`).
  static func head(_ store: CLIStore) throws -> (position: Int, hash: String) {
    let parts = try store.head().split(separator: "\n")[0].split(separator: " ")
    return (try #require(Int(parts[0])), String(parts[1]))
  }

  static func mirror(_ nats: NATSServer, _ directory: TemporaryDirectory) throws -> (status: Int32, json: [String: Any])
  {
    let result = try CLI.run([
      "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", directory.path, "--once", "--idle", "0.5",
      "--format", "json",
    ])
    return (result.status, try #require(try json(result.stdout) as? [String: Any], "\(result.stderr)"))
  }

  @Test func storesPushAndTheMirrorVerifiesEachAsItsOwnLog() throws {
    let nats = try NATSServer()
    let stores = try [CLIStore(generatedEvents: 600), CLIStore(generatedEvents: 100), CLIStore()]
    for store in stores {
      let pushed = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
      let head = try Self.head(store)
      #expect(pushed["published"] as? Int == head.position && pushed["publishedBefore"] as? Int == 0)
      // Bundles end at multiples of 256.
      #expect(pushed["bundles"] as? Int == (head.position + 255) / 256)
    }
    let again = try stores[0].object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    #expect(again["bundles"] as? Int == 0, "what the stream holds is not published again")

    let directory = TemporaryDirectory("mirror")
    var (status, answer) = try Self.mirror(nats, directory)
    #expect(status == 0)
    var verdicts = try #require(answer["stores"] as? [[String: Any]])
    #expect(verdicts.count == 3 && (answer["alerts"] as? [Any])?.isEmpty == true, "\(answer)")
    for store in stores {
      let head = try Self.head(store)
      let id = try #require(try store.object(["status"])["storeId"] as? String)
      let verdict = try #require(verdicts.first { $0["store"] as? String == id })
      #expect(verdict["verifiedSize"] as? Int == head.position && verdict["head"] as? String == head.hash)
      #expect(verdict["flagged"] as? Bool == false)
    }

    // More records, pushed and taken by the same durable consumer after a restart of the mirror.
    _ = try stores[1].calendar("Later")
    _ = try stores[1].object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    (status, answer) = try Self.mirror(nats, directory)
    verdicts = try #require(answer["stores"] as? [[String: Any]])
    let id = try #require(try stores[1].object(["status"])["storeId"] as? String)
    #expect(
      verdicts.first { $0["store"] as? String == id }?["verifiedSize"] as? Int == (try Self.head(stores[1]).position))
  }

  /// Stores starting at once on a new organisation all ask to create its stream; while the first
  /// creation is under way JetStream tells the others that the subjects overlap an existing stream
  /// (Benchmarks/scripts/bench-fleet's two pushes at a time met it). The creation asks again until the stream is
  /// there; a stream of another name over the subjects still fails, after a second or so.
  @Test func aStreamCreatedMeanwhileIsFoundAndAnotherOverTheSubjectsRefused() throws {
    let nats = try NATSServer()
    let setup = try NATSConnection(url: nats.url)
    try setup.addStream(name: "OTHER", subjects: ["kal.rush.>"], replicas: 1, duplicateWindow: .seconds(60))
    let outcome = Mutex<Result<Void, NATSError>?>(nil)
    let url = nats.url
    let creator = Thread {
      let result = Result { () throws(NATSError) in
        try NATSConnection(url: url).addStream(
          name: "KAL_rush", subjects: ["kal.rush.>"], replicas: 1, duplicateWindow: .seconds(60))
      }
      outcome.withLock { $0 = result }
    }
    creator.start()
    // Its first request meets the other stream; a later one finds the subjects free.
    Thread.sleep(forTimeInterval: 0.4)
    try setup.deleteStream("OTHER")
    let deadline = Date().addingTimeInterval(10)
    while outcome.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    let result = try #require(outcome.withLock { $0 })
    #expect((try? result.get()) != nil, "\(result)")
    #expect(try setup.streamReplicas("KAL_rush") == 1)

    // Another stream holding the subjects for good: refused, naming the overlap.
    try setup.addStream(name: "OTHER", subjects: ["kal.held.>"], replicas: 1, duplicateWindow: .seconds(60))
    let store = try CLIStore()
    let refused = try store.run(["fleet", "push", "--nats", nats.url, "--org", "held"])
    #expect(refused.status != 0 && refused.stderr.contains("overlap"), "\(refused.stderr)")
  }

  @Test func aBundleTheStreamLostIsSentAgainOnTheMirrorsRequestAndAllIsVerified() throws {
    let nats = try NATSServer()
    let store = try CLIStore(generatedEvents: 600)
    let head = try Self.head(store)
    #expect(head.position > 512, "three bundles")
    _ = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    // The stream loses the middle bundle (messages 1, 2, 3 are the three bundles).
    try NATSConnection(url: nats.url).deleteMessage(stream: "KAL_acme", sequence: 2)
    let directory = TemporaryDirectory("mirror")
    var (status, answer) = try Self.mirror(nats, directory)
    #expect(status == 0, "a gap flags nothing")
    var verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(verdict["verifiedSize"] as? Int == 256)
    let alert = try #require((answer["alerts"] as? [[String: Any]])?.first)
    #expect(alert["kind"] as? String == "gap" && alert["position"] as? Int == 257, "\(answer)")
    // The store's next push answers the mirror's request: everything from 257, again.
    let again = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    #expect(again["resent"] as? Int == head.position - 256 && again["published"] as? Int == head.position)
    (status, answer) = try Self.mirror(nats, directory)
    verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(status == 0 && verdict["verifiedSize"] as? Int == head.position && verdict["head"] as? String == head.hash)
    // Answered once: the next push sends nothing again.
    #expect(try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])["resent"] as? Int == 0)
  }

  @Test func aSignedCheckpointFollowsTheRecordsAndCountsUnderTheEnrolledKey() throws {
    let nats = try NATSServer()
    let store = try CLIStore(generatedEvents: 50)
    let keys = TemporaryDirectory("keys")
    let key = keys.path + "/owner.key"
    let verifier = try #require(
      try CLI.run(["key", "generate", "owner.example", "--out", key]).stdout.split(separator: "\n").first.map(
        String.init))
    #expect(try store.run(["checkpoint", "sign", "--key", key]).status == 0)
    let head = try Self.head(store)
    let pushed = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    #expect(pushed["checkpoint"] as? Int == head.position)
    let id = try #require(try store.object(["status"])["storeId"] as? String)
    let directory = TemporaryDirectory("mirror")
    let result = try CLI.run([
      "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", directory.path, "--once", "--idle", "0.5",
      "--enrol", "\(id)=\(verifier)", "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let answer = try #require(try json(result.stdout) as? [String: Any])
    let verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(verdict["checkpoint"] as? Int == head.position, "\(answer)")
    // Another key enrolled for the store: the checkpoint is not its, and the store is flagged.
    let other = try #require(
      try CLI.run(["key", "generate", "other.example", "--out", keys.path + "/other.key"]).stdout.split(
        separator: "\n"
      ).first.map(String.init))
    let second = TemporaryDirectory("mirror")
    let flagged = try CLI.run([
      "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", second.path, "--once", "--idle", "0.5",
      "--durable", "second", "--enrol", "\(id)=\(other)",
    ])
    #expect(flagged.status == 69 && flagged.stdout.contains("not signed by the key enrolled"), "\(flagged.stdout)")
    #expect(
      try CLI.run(["fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", second.path, "--enrol", "x=y"])
        .status == 64)
  }

  @Test func aClonedStoreIsRefusedAndNeverInterleaved() throws {
    let nats = try NATSServer()
    let original = try CLIStore(generatedEvents: 50)
    _ = try original.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    let clone = TemporaryDirectory("clone")
    try FileManager.default.copyItem(atPath: original.directory.storePath, toPath: clone.storePath)
    // Each goes its own way; the clone publishes first.
    _ = try original.calendar("Original")
    #expect(try CLI.run(["calendar", "create", "Clone", "--store", clone.storePath]).status == 0)
    let first = try CLI.run(["fleet", "push", "--nats", nats.url, "--org", "acme", "--store", clone.storePath])
    #expect(first.status == 0, "\(first.stderr)")
    let refused = try original.run(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    #expect(refused.status == 67 && refused.stderr.contains("cloned store"), "\(refused.stderr)")
    // The mirror holds one log of the id, and it verifies.
    let directory = TemporaryDirectory("mirror")
    let (status, answer) = try Self.mirror(nats, directory)
    #expect(status == 0 && (answer["stores"] as? [[String: Any]])?.count == 1, "\(answer)")
    // An organisation that cannot be a subject is a usage error.
    #expect(try original.run(["fleet", "push", "--nats", nats.url, "--org", "a.b"]).status == 64)
    // No server: a NATS failure.
    #expect(try original.run(["fleet", "push", "--nats", "nats://127.0.0.1:1", "--org", "acme"]).status == 70)
  }
}
