import Foundation
import Kalends
import KalendsFleet
import KalendsTestSupport
import Testing

/// An erasure reaches the fleet: what the person erased in the store is erased in the mirror's
/// copies too, by the `contentErased` record as it arrives, and a record that comes again in either
/// form neither restores the content nor counts as a fork; the store goes on publishing though
/// records of the stream's last bundle were erased since (real nats-server, real mirror).
@Suite("kalends fleet: an erasure reaches the mirror's copies")
struct FleetErasureTests {
  static func holdsSecret(_ records: [[UInt8]]) -> Bool {
    ErasableStore.holdsSecret(Data(records.joined()))
  }

  /// The mirror in `directory` (run with `durable`) holds exactly the store's records, byte for byte.
  static func expectSameCopies(_ store: CLIStore, _ directory: TemporaryDirectory) throws {
    let opened = try Store.open(at: store.directory.storePath, options: StoreOptions(readOnly: true))
    let own = try opened.recordBytes(from: LogPosition(1), through: try opened.head().position)
    let mirror = try FleetMirror(directory: directory.path, subjects: try FleetSubjects(organisation: "acme"))
    let copies = try mirror.heldRecords(of: opened.id)
    #expect(copies.count == own.count && copies == own, "the mirror's copies are the store's records")
    #expect(!holdsSecret(copies))
  }

  /// A pass of the mirror in `directory`, the store's checkpoint key enrolled: no alert.
  static func mirror(
    _ nats: NATSServer, _ directory: TemporaryDirectory, _ erasable: ErasableStore,
    durable: String = "kalends-mirror"
  ) throws -> [String: Any] {
    let id = try #require(try erasable.store.object(["status"])["storeId"] as? String)
    let result = try CLI.run([
      "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", directory.path, "--once", "--idle", "0.5",
      "--format", "json", "--durable", durable, "--enrol", "\(id)=\(erasable.audited.verifier)",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let answer = try #require(try json(result.stdout) as? [String: Any], "\(result.stderr)")
    #expect((answer["alerts"] as? [Any])?.isEmpty == true, "\(answer["alerts"] ?? "")")
    return answer
  }

  @Test func whatThePersonErasedIsErasedInTheMirrorsCopies() throws {
    let nats = try NATSServer()
    let erasable = try ErasableStore()
    let store = erasable.store
    let push = ["fleet", "push", "--nats", nats.url, "--org", "acme"]
    #expect(try store.run(push).status == 0)
    let first = TemporaryDirectory("mirror")
    _ = try Self.mirror(nats, first, erasable)
    let text = try #require(try store.object(["status"])["storeId"] as? String)
    let id = try #require(StoreID(uuid: text))
    do {
      let mirror = try FleetMirror(directory: first.path, subjects: try FleetSubjects(organisation: "acme"))
      #expect(Self.holdsSecret(try mirror.heldRecords(of: id)), "the mirror held the content before")
    }

    // Erased in the store, inside the stream's last bundle: the next push is no clone's.
    _ = try store.object(["erase", "event", erasable.event, "--reason", "asked to forget"])
    let pushed = try store.run(push)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    _ = try Self.mirror(nats, first, erasable)
    try Self.expectSameCopies(store, first)

    // A mirror new to the stream takes the content first, then the erasure that erases it.
    let second = TemporaryDirectory("mirror")
    _ = try Self.mirror(nats, second, erasable, durable: "second")
    try Self.expectSameCopies(store, second)

    // Asked to send everything again, the store sends the erased forms: the mirror that held the
    // content erased takes them as the same records.
    let subjects = try FleetSubjects(organisation: "acme")
    _ = try NATSConnection(url: nats.url).publish(
      Array("1".utf8), to: subjects.resends(of: id), messageID: "again")
    let resent = try store.object(push)
    #expect(resent["resent"] as? Int ?? 0 > 0, "\(resent)")
    for (directory, durable) in [(first, "kalends-mirror"), (second, "second")] {
      let answer = try Self.mirror(nats, directory, erasable, durable: durable)
      let verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
      #expect(verdict["flagged"] as? Bool == false && verdict["checkpoint"] is Int, "\(verdict)")
      try Self.expectSameCopies(store, directory)
    }
  }
}
