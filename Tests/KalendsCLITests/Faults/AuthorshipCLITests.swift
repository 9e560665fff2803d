import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: who may make which record")
struct AuthorshipCLITests {
  static let app = "com.example.planner"

  func registered() throws -> CLIStore {
    let store = try CLIStore()
    try store.register(Self.app)
    return store
  }

  /// `verify` (its walk too, unless `walk` is false), `audit verify` and `rebuild` each exit 69
  /// naming `position`.
  func expectRefused(_ store: CLIStore, at position: Int, walk: Bool = true) throws {
    let commands = (walk ? [["verify", "--log-only"]] : []) + [["verify"], ["audit", "verify"], ["rebuild"]]
    for command in commands {
      let result = try store.run(command)
      #expect(result.status == 69, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("position \(position)"), "\(command): \(result.stderr)")
    }
  }

  @Test func anAppsDecisionAboutItsOwnAccessIsAnIntegrityFailure() throws {
    let store = try registered()
    // Denied by the person, then a forged grant by the app itself, chained as Kalends would.
    try store.object(["access", "request", "--service", "calendars", "--answer", "deny", "--as", Self.app])
    let forged = try Forger.append(
      store.directory.storePath, actor: "client:\(Self.app)", kind: 403,
      fields: Forger.decision(Self.app, status: 3, previous: 2, reason: 2))
    try expectRefused(store, at: forged)
    let read = try store.run(["event", "list", "--as", Self.app])
    #expect(read.status == 69, "opening the store replays the forged record: \(read.stdout)\(read.stderr)")
  }

  @Test(arguments: [
    ("client:com.example.planner", 403, ["1:s:com.example.other", "2:u:1", "3:u:3", "4:u:0", "5:u:2"]),
    ("client:com.example.planner", 401, ["1:s:com.example.planner", "2:s:Planner"]),
    ("person", 403, ["1:s:com.example.planner", "2:u:1", "3:u:1", "4:u:0", "5:u:3"]),
    ("policy:school", 403, ["1:s:com.example.planner", "2:u:1", "3:u:3", "4:u:0", "5:u:2"]),
    ("system", 403, ["1:s:com.example.planner", "2:u:1", "3:u:3", "4:u:0", "5:u:1"]),
    ("client:com.example.other", 402, ["1:s:com.example.planner", "2:u:1", "3:u:1", "4:u:3", "5:b:0"]),
    ("person", 402, ["1:s:com.example.planner", "2:u:1", "3:u:1", "4:u:3", "5:b:0"]),
    ("policy:school", 101, ["1:s:x"]),
    ("client:com.example.planner", 1, ["1:s:x"]),
  ])
  func aRecordByAnAuthorThatMayNotMakeItIsRefused(actor: String, kind: Int, fields: [String]) throws {
    let store = try registered()
    try store.object(["client", "register", "com.example.other", "--name", "Other"])
    let forged = try Forger.append(store.directory.storePath, actor: actor, kind: kind, fields: fields)
    let verify = try store.run(["verify", "--log-only"])
    #expect(verify.status == 69 && verify.stderr.contains("position \(forged)"), "\(actor) \(kind): \(verify.stderr)")
    #expect(verify.stderr.contains("may not"), "\(verify.stderr)")
    // The independent decoder, written from docs/log-format.md, finds the same record.
    let decoded = try IndependentDecoderTests().decode(["--verify", store.directory.storePath])
    let report = try #require(try json(decoded.lines.joined()) as? [String: Any])
    let problem = try #require(report["problem"] as? [String: Any])
    #expect(decoded.status == 69 && problem["kind"] as? String == "unauthorizedRecord")
    #expect(problem["position"] as? Int == forged)
  }

  @Test func aPolicyLiftingAnotherPolicysRestrictionIsRefusedOnReplay() throws {
    let store = try registered()
    try store.object(["access", "restrict", Self.app, "--service", "calendars", "--policy", "school"])
    let forged = try Forger.append(
      store.directory.storePath, actor: "policy:other", kind: 403,
      fields: Forger.decision(Self.app, status: 0, previous: 1, reason: 3))
    // The record's author is a policy, so the walk passes; the replay of the state refuses it.
    #expect(try store.run(["verify", "--log-only"]).status == 0)
    try expectRefused(store, at: forged, walk: false)
  }

  @Test func aDecisionWhoseStatusIsNotWhatTheRulesGiveIsRefused() throws {
    let store = try registered()
    try store.object(["access", "restrict", Self.app, "--service", "calendars", "--policy", "school"])
    // A reset by the person that claims to return the restricted app to notDetermined.
    let forged = try Forger.append(
      store.directory.storePath, actor: "person", kind: 403,
      fields: Forger.decision(Self.app, status: 0, previous: 1, reason: 4))
    // Its author may make resets, so only the replay of the state refuses it.
    #expect(try store.run(["verify", "--log-only"]).status == 0)
    try expectRefused(store, at: forged, walk: false)
  }
}

@Suite("Command line: policies bind")
struct PolicyCLITests {
  static let app = "com.example.planner"

  func status(_ store: CLIStore) throws -> String? {
    let rows = try store.objects(["access", "status", Self.app])
    return rows.first { $0["service"] as? String == "calendars" }?["status"] as? String
  }

  func restricted() throws -> CLIStore {
    let store = try CLIStore()
    try store.register(Self.app)
    try store.object(["access", "set", Self.app, "--service", "calendars", "--status", "full"])
    try store.object(["access", "restrict", Self.app, "--service", "calendars", "--policy", "school"])
    return store
  }

  @Test func aResetClearsThePersonsDecisionAndLeavesTheRestrictionInForce() throws {
    let store = try restricted()
    let reset = try store.run(["access", "reset", Self.app, "--service", "calendars"])
    #expect(reset.status == 0, "\(reset.stderr)")
    #expect(try status(store) == "restricted")
    let request = try store.object([
      "access", "request", "--service", "calendars", "--answer", "allow", "--as", Self.app,
    ])
    #expect(request["status"] as? String == "restricted", "the app cannot get access around the policy")
    let refused = try store.run(["event", "list", "--as", Self.app])
    #expect(refused.status == 68 && refused.stderr.contains("a policy restricts"), "\(refused.stderr)")
    try store.object(["access", "unrestrict", Self.app, "--service", "calendars", "--policy", "school"])
    #expect(try status(store) == "notDetermined", "the reset cleared the person's full access")
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func onlyThePolicyThatRestrictedLiftsItsRestriction() throws {
    let store = try restricted()
    let before = try store.head()
    let other = try store.run(["access", "unrestrict", Self.app, "--service", "calendars", "--policy", "other"])
    #expect(other.status == 68 && other.stderr.contains("policy school"), "\(other.stderr)")
    #expect(try store.head() == before, "nothing was written")
    #expect(try status(store) == "restricted")
    let settings = try store.run(["access", "set", Self.app, "--service", "calendars", "--status", "full"])
    #expect(settings.status == 68 && settings.stderr.contains("policy"))
  }

  @Test func twoPoliciesRestrictingNeedTwoLifts() throws {
    let store = try restricted()
    try store.object(["access", "restrict", Self.app, "--service", "calendars", "--policy", "mdm"])
    let again = try store.head()
    try store.object(["access", "restrict", Self.app, "--service", "calendars", "--policy", "mdm"])
    #expect(try store.head() == again, "a policy restricting twice writes once")
    try store.object(["access", "unrestrict", Self.app, "--service", "calendars", "--policy", "school"])
    #expect(try status(store) == "restricted", "mdm still restricts")
    try store.object(["access", "unrestrict", Self.app, "--service", "calendars", "--policy", "mdm"])
    #expect(try status(store) == "fullAccess", "back to the person's decision")
    let history = try store.objects(["audit", "history", "--client", Self.app])
    let policies = history.compactMap { $0["actor"] as? String }.filter { $0.hasPrefix("policy:") }
    #expect(policies == ["policy:school", "policy:mdm", "policy:school", "policy:mdm"], "\(policies)")
    #expect(try store.run(["verify"]).status == 0)
  }
}
