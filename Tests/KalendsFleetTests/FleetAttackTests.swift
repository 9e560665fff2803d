import Foundation
import Kalends
import KalendsFleet
import KalendsTestSupport
import Testing

/// The attacks on a store's log the fleet's mirror exists to catch, each made as its attacker would
/// — with the store's files, its checkpoint key and its NATS credentials — and each carried through
/// a real `nats-server` to a mirror that flags the store and keeps the evidence: a forged decision,
/// a clone that went its own way, the store's history rewritten after a checkpoint. (A withheld
/// store is FleetVerdictTests'; a gap the stream made, FleetCommandTests'.)
@Suite("kalends fleet mirror: each attack on a store is flagged with its evidence")
struct FleetAttackTests {
  static let app = "com.example.planner"

  static func push(_ store: CLIStore, _ nats: NATSServer) throws -> CLI.Result {
    try store.run(["fleet", "push", "--nats", nats.url, "--org", "acme"])
  }

  static func id(_ store: CLIStore) throws -> String {
    try #require(try store.object(["status"])["storeId"] as? String)
  }

  /// A store whose person denied the planner calendars, with a checkpoint signed by `key`.
  static func deniedStore(signedBy key: String? = nil) throws -> CLIStore {
    let store = try CLIStore(generatedEvents: 20)
    try store.register(Self.app)
    _ = try store.object(["access", "request", "--service", "calendars", "--answer", "deny", "--as", Self.app])
    if let key { #expect(try store.run(["checkpoint", "sign", "--key", key]).status == 0) }
    return store
  }

  @Test func aForgedDecisionPublishedUnderTheStoresIdIsFlaggedAtItsPosition() throws {
    let nats = try NATSServer()
    let store = try Self.deniedStore()
    #expect(try Self.push(store, nats).status == 0)
    let id = try Self.id(store)
    // The app grants itself access, chained as Kalends would chain it; the publisher sends what
    // the store holds, and the mirror judges it.
    let forged = try Forger.append(
      store.directory.storePath, actor: "client:\(Self.app)", kind: 403,
      fields: Forger.decision(Self.app, status: 3, previous: 2, reason: 2))
    let pushed = try Self.push(store, nats)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let forgedBytes = try LogRewriter.records(store.directory.storePath, from: forged)
    let directory = TemporaryDirectory("mirror")
    let (status, answer) = try FleetVerdictTests.mirror(nats, directory, [])
    #expect(status == 69, "a flagged store")
    let alert = try #require(FleetVerdictTests.alerts(answer, "integrity").first, "\(answer)")
    #expect(alert["position"] as? Int == forged && alert["store"] as? String == id)
    #expect((alert["evidenceBytes"] as? Int ?? 0) > forgedBytes.joined().count, "the bundle is kept as it came")
    let verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(verdict["flagged"] as? Bool == true && verdict["verifiedSize"] as? Int == forged - 1)
    // The fleet's audit answers from what is verified: the person's denial stands.
    let state = try FleetAuditTests.fleetRows(["state", "--store", id], directory)
    let planner = try #require(
      state.first { $0["client"] as? String == Self.app && $0["service"] as? String == "calendars" }, "\(state)")
    #expect(planner["status"] as? String == "denied", "\(planner)")
    #expect(state.allSatisfy { $0["standing"] as? String == "flagged" }, "\(state)")
  }

  /// A denied store that signs its checkpoints under an enrolled key, pushed and mirrored once:
  /// where the attacks on a signed store begin.
  struct SignedStore {
    let nats: NATSServer
    let keys: TemporaryDirectory
    let owner: (path: String, verifier: String)
    let store: CLIStore
    let id: String
    let enrol: [String]
    let directory: TemporaryDirectory
    /// The first mirror's exit status and answer.
    let mirrored: (status: Int32, json: [String: Any])

    init() throws {
      nats = try NATSServer()
      keys = TemporaryDirectory("keys")
      owner = try FleetVerdictTests.key("owner.example", in: keys)
      store = try FleetAttackTests.deniedStore(signedBy: owner.path)
      #expect(try FleetAttackTests.push(store, nats).status == 0)
      id = try FleetAttackTests.id(store)
      enrol = ["--enrol", "\(id)=\(owner.verifier)"]
      directory = TemporaryDirectory("mirror")
      mirrored = try FleetVerdictTests.mirror(nats, directory, enrol)
    }
  }

  /// With nothing but the store's NATS password, a forger publishes a record chained to the store's
  /// last bundle — a grant in the person's name, which every rule allows. The mirror's chain takes it;
  /// the fleet's audit answers it only as pending (no checkpoint under the store's key covers it),
  /// and once the store's own signed tree shows the fork, not at all.
  @Test func aRecordForgedWithTheStoresNATSPasswordIsPendingThenWithheld() throws {
    let start = try SignedStore()
    let (nats, owner, store, id, enrol, directory) = (
      start.nats, start.owner, start.store, start.id, start.enrol, start.directory
    )
    var (status, answer) = start.mirrored
    #expect(status == 0, "\(answer)")
    func planner() throws -> [String: Any] {
      let state = try FleetAuditTests.fleetRows(["state", "--store", id], directory)
      // No row: the expectations below fail on its empty fields.
      return state.first { $0["client"] as? String == Self.app && $0["service"] as? String == "calendars" } ?? [:]
    }
    let signed = try planner()
    #expect(signed["status"] as? String == "denied" && signed["standing"] as? String == "verified", "\(signed)")

    // The forger: a copy of what the stream holds (the store's records), one more record in the
    // person's name, pushed with the store's NATS password. No checkpoint key.
    let forger = TemporaryDirectory("forger")
    try FileManager.default.copyItem(atPath: store.directory.storePath, toPath: forger.storePath)
    let forged = try Forger.append(
      forger.storePath, actor: "person", kind: 403, fields: Forger.decision(Self.app, status: 3, previous: 2, reason: 2)
    )
    let published = try CLI.run(["fleet", "push", "--nats", nats.url, "--org", "acme", "--store", forger.storePath])
    #expect(published.status == 0, "\(published.stderr)")
    (status, answer) = try FleetVerdictTests.mirror(nats, directory, enrol)
    #expect(status == 0, "the chain and the rules take it: \(answer)")
    let taken = try planner()
    #expect(taken["status"] as? String == "fullAccess" && taken["standing"] as? String == "pending", "\(taken)")
    let history = try FleetAuditTests.fleetRows(["history", "--store", id], directory)
    let row = try #require(history.first { $0["position"] as? Int == forged }, "\(history)")
    #expect(row["standing"] as? String == "pending", "\(row)")
    #expect(
      history.filter { ($0["position"] as? Int ?? 0) < forged }.allSatisfy { $0["standing"] as? String == "verified" })

    // The store goes on and signs its own tree: its push is refused, its checkpoint shows the fork,
    // and the audit answers from the branch the store signed.
    _ = try store.calendar("Later")
    #expect(try store.run(["checkpoint", "sign", "--key", owner.path]).status == 0)
    #expect(try Self.push(store, nats).status == 67)
    (status, answer) = try FleetVerdictTests.mirror(nats, directory, enrol)
    #expect(status == 69, "\(answer)")
    let after = try planner()
    #expect(after["status"] as? String == "denied" && after["standing"] as? String == "flagged", "\(after)")
    let withheld = try FleetAuditTests.fleetRows(["history", "--store", id], directory)
    #expect(!withheld.contains { $0["position"] as? Int == forged }, "\(withheld)")
  }

  enum Attack: String, CaseIterable, Sendable {
    /// A copy of the store's files goes its own way under the same id, and signs with its key.
    case clone
    /// The store's history is rewritten after its records and checkpoint were published (the
    /// person's denial turned into a grant), re-chained, and signed again.
    case rewrite
  }

  /// Either way the stream holds one log and the store, or its copy, another: its push is refused
  /// (67), publishes the checkpoint it signed over its own log, and the mirror holding the other log
  /// flags the store, keeping both signed notes — each verified by `Tests/Oracles/tlog_oracle.py` under the
  /// store's enrolled key, of one size with two roots: a fork no one can deny.
  @Test(arguments: Attack.allCases)
  func twoSignedTreesThatDisagreeFlagTheStore(_ attack: Attack) throws {
    let start = try SignedStore()
    let (nats, keys, owner, store, id, enrol, directory) = (
      start.nats, start.keys, start.owner, start.store, start.id, start.enrol, start.directory
    )
    var (status, answer) = start.mirrored
    let signedFirst = try #require((answer["stores"] as? [[String: Any]])?.first?["checkpoint"] as? Int)
    #expect(status == 0 && FleetVerdictTests.alerts(answer, "checkpoint").isEmpty, "\(answer)")

    switch attack {
    case .clone:
      let clone = TemporaryDirectory("clone")
      try FileManager.default.copyItem(atPath: store.directory.storePath, toPath: clone.storePath)
      // Each makes one record and signs its tree: one size, two roots.
      #expect(try CLI.run(["calendar", "create", "Clone", "--store", clone.storePath]).status == 0)
      #expect(try CLI.run(["checkpoint", "sign", "--key", owner.path, "--store", clone.storePath]).status == 0)
      // The clone goes on past its checkpoint: the original's comes to a mirror holding more.
      #expect(try CLI.run(["calendar", "create", "Clone 2", "--store", clone.storePath]).status == 0)
      #expect(
        try CLI.run(["fleet", "push", "--nats", nats.url, "--org", "acme", "--store", clone.storePath]).status == 0)
      _ = try store.calendar("Original")
    case .rewrite:
      // As many records as were published and signed, one of them another.
      // The store would refuse to sign a tree its kept checkpoint contradicts: they go too.
      try LogRewriter.rewrite(store.directory.storePath, LogRewriter.grantTheFirstDecision)
      try LogRewriter.forgetCheckpoints(store.directory.storePath)
    }
    let signed = try store.run(["checkpoint", "sign", "--key", owner.path])
    #expect(signed.status == 0, "\(signed.stderr)")
    let refused = try Self.push(store, nats)
    #expect(refused.status == 67 && refused.stderr.contains("published for the mirrors"), "\(refused.stderr)")

    (status, answer) = try FleetVerdictTests.mirror(nats, directory, enrol)
    #expect(status == 69, "\(answer)")
    let verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(verdict["flagged"] as? Bool == true, "\(verdict)")
    let alert = try #require(FleetVerdictTests.alerts(answer, "checkpoint").last, "\(answer)")
    let disputed = try #require(alert["note"] as? String, "\(alert)")
    // The other note: the one the mirror verified (the clone's, or the original's first).
    let bucket = try NATSConnection(url: nats.url).keyValue(bucket: "KAL_acme_verdicts")
    let held = try FleetVerdict(bytes: try #require(try bucket.value(forKey: "\(id).kalends-mirror")))
    let kept = try #require(held.checkpoint?.description)
    var trees: [(size: Int, root: String)] = []
    for (name, note) in [("disputed", disputed), ("kept", kept)] {
      let file = keys.path + "/\(name)"
      try note.write(toFile: file, atomically: true, encoding: .utf8)
      let oracle = try TlogOracle.run(["check-note", file, owner.verifier])
      #expect(oracle.status == 0, "\(name): \(oracle.stderr)")
      let checked = try #require(try json(oracle.stdout) as? [String: Any])
      trees.append((try #require(checked["size"] as? Int), try #require(checked["root"] as? String)))
    }
    #expect(trees[0].size == trees[1].size && trees[0].root != trees[1].root, "\(trees)")
    #expect(alert["position"] as? Int == trees[0].size && alert["store"] as? String == id)
    // A clone's tree is one record longer than the first checkpoint; a rewrite's, as long.
    #expect(trees[1].size == signedFirst + (attack == .clone ? 1 : 0), "\(trees)")
  }
}
