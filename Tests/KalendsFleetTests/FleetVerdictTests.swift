import Foundation
import Kalends
import KalendsFleet
import KalendsTestSupport
import Testing

/// The mirror's word to the organisation, through a real `nats-server`: its verdict on each store in
/// the bucket of verdicts with the store's checkpoint cosigned by the mirror's key (checked by
/// `Tests/Oracles/tlog_oracle.py`, which shares no code with Kalends), and the alerts of what did not come.
@Suite("kalends fleet mirror: verdicts, cosignatures, stale and withheld stores")
struct FleetVerdictTests {
  /// A key made by `kalends key generate`, and its verifier key.
  static func key(_ name: String, in directory: TemporaryDirectory, cosigner: Bool = false) throws -> (
    path: String, verifier: String
  ) {
    let path = directory.path + "/\(name.replacingOccurrences(of: "/", with: "-")).key"
    let made = try CLI.run(["key", "generate", name, "--out", path] + (cosigner ? ["--cosigner"] : []))
    try #require(made.status == 0, "\(made.stderr)")
    return (path, try #require(made.stdout.split(separator: "\n").first.map(String.init)))
  }

  static func mirror(_ nats: NATSServer, _ directory: TemporaryDirectory, _ extra: [String]) throws -> (
    status: Int32, json: [String: Any]
  ) {
    let result = try CLI.run(
      [
        "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", directory.path, "--once", "--idle", "0.5",
        "--format", "json",
      ] + extra)
    return (result.status, try #require(try json(result.stdout) as? [String: Any], "\(result.stderr)"))
  }

  static func alerts(_ answer: [String: Any], _ kind: String) -> [[String: Any]] {
    (answer["alerts"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind }
  }

  @Test func theMirrorPutsItsVerdictWithTheCheckpointItCosigned() throws {
    let nats = try NATSServer()
    let store = try CLIStore(generatedEvents: 50)
    let keys = TemporaryDirectory("keys")
    let owner = try Self.key("owner.example", in: keys)
    let mirrorKey = try Self.key("mirror.example/m1", in: keys, cosigner: true)
    #expect(try store.run(["checkpoint", "sign", "--key", owner.path]).status == 0)
    _ = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    let id = try #require(try store.object(["status"])["storeId"] as? String)
    let head = try FleetCommandTests.head(store)
    let directory = TemporaryDirectory("mirror")
    let (status, _) = try Self.mirror(nats, directory, ["--enrol", "\(id)=\(owner.verifier)", "--key", mirrorKey.path])
    #expect(status == 0)

    let bucket = try NATSConnection(url: nats.url).keyValue(bucket: "KAL_acme_verdicts")
    let bytes = try #require(try bucket.value(forKey: "\(id).kalends-mirror"))
    let verdict = try FleetVerdict(bytes: bytes)
    #expect(verdict.verifiedSize == UInt64(head.position) && verdict.head.hex == head.hash && !verdict.flagged)
    let note = try #require(verdict.checkpoint?.description)
    // The oracle checks the store's signature and the mirror's C2SP cosignature from the texts alone.
    let file = keys.path + "/note"
    try note.write(toFile: file, atomically: true, encoding: .utf8)
    let oracle = try TlogOracle.run(["check-note", file, owner.verifier, mirrorKey.verifier])
    #expect(oracle.status == 0, "\(oracle.stderr)")
    let checked = try #require(try json(oracle.stdout) as? [String: Any])
    #expect(checked["size"] as? Int == head.position)
    // Another cosigner's key does not verify it.
    let other = try Self.key("other.example/m2", in: keys, cosigner: true)
    #expect(try TlogOracle.run(["check-note", file, owner.verifier, other.verifier]).status == 1)
    // A store key is no mirror's key.
    let refused = try CLI.run([
      "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", directory.path, "--once", "--key", owner.path,
    ])
    #expect(refused.status == 64 && refused.stderr.contains("cosigner"), "\(refused.stderr)")
  }

  @Test func recordsACheckpointCoversButTheStreamLacksAreAskedForAgainAndAStaleStoreIsAlertedOnce() throws {
    let nats = try NATSServer()
    let store = try CLIStore(generatedEvents: 600)
    let keys = TemporaryDirectory("keys")
    let owner = try Self.key("owner.example", in: keys)
    let pushed = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    let published = try #require(pushed["published"] as? Int)
    // The store goes on and signs a checkpoint over records it does not publish: only the
    // checkpoint reaches the stream (a store withholding records; the same as the stream losing the
    // last bundles, which no later bundle shows as a gap).
    for title in ["A", "B", "C"] { _ = try store.calendar(title) }
    #expect(try store.run(["checkpoint", "sign", "--key", owner.path]).status == 0)
    let head = try FleetCommandTests.head(store)
    let id = try #require(try store.object(["status"])["storeId"] as? String)
    do {
      let opened = try Store.open(at: store.directory.storePath)
      let note = try #require(try opened.checkpoint(size: UInt64(head.position)))
      let message = CheckpointMessage(note: note, publishedSize: UInt64(head.position), proof: [])
      let subjects = try FleetSubjects(organisation: "acme")
      _ = try NATSConnection(url: nats.url).publish(
        message.bytes, to: subjects.checkpoints(of: opened.id), messageID: "withheld")
    }
    let directory = TemporaryDirectory("mirror")
    let enrol = ["--enrol", "\(id)=\(owner.verifier)"]
    var (status, answer) = try Self.mirror(nats, directory, enrol + ["--checkpoint-within", "1000"])
    #expect(status == 0, "withheld flags nothing")
    let withheld = try #require(Self.alerts(answer, "withheld").first, "\(answer)")
    #expect(withheld["position"] as? Int == published + 1)
    #expect(Self.alerts(answer, "stale").isEmpty, "600 records past no checkpoint is within 1000")
    // The mirror asked for them; the store's next push sends them, and the checkpoint is verified.
    let asked = try NATSConnection(url: nats.url).lastMessage(
      stream: "KAL_acme", subject: "kal.acme.\(id).resend")
    #expect(asked.map { String(decoding: $0.data, as: UTF8.self) } == String(published + 1))
    _ = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    (status, answer) = try Self.mirror(nats, directory, enrol)
    let verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(verdict["verifiedSize"] as? Int == head.position && verdict["checkpoint"] as? Int == head.position)
    #expect(Self.alerts(answer, "withheld").count == 1, "raised once")

    // Records past the checkpoint, more than allowed: stale, raised once however often it runs.
    for title in ["D", "E", "F"] { _ = try store.calendar(title) }
    _ = try store.object(["fleet", "push", "--nats", nats.url, "--org", "acme"])
    for _ in 0..<2 {
      (status, answer) = try Self.mirror(nats, directory, enrol + ["--checkpoint-within", "2"])
      #expect(status == 0)
    }
    let stale = Self.alerts(answer, "stale")
    #expect(stale.count == 1 && stale.first?["position"] as? Int == head.position, "\(answer)")
  }
}
