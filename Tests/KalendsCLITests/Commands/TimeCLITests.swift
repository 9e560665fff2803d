import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: time moves forward, and the audit's now is the head")
struct TimeCLITests {
  static let app = "com.example.planner"

  @Test func verifyWarnsOfATimestampEarlierThanTheRecordBeforeIt() throws {
    let store = try CLIStore()
    let forged = try Forger.append(
      store.directory.storePath, actor: "person", kind: 2, fields: ["1:s:a note"], time: 1_000_000)
    let verify = try store.run(["verify"])
    #expect(verify.status == 0, "the chain is intact: \(verify.stderr)")
    #expect(verify.stderr.contains("warning: position \(forged)"), "\(verify.stderr)")
    #expect(verify.stderr.contains("earlier than a record before it"), "\(verify.stderr)")
    let report = try store.object(["verify", "--format", "json"])
    let anomalies = try #require(report["timestampAnomalies"] as? [[String: Any]])
    #expect(anomalies.map { $0["kind"] as? String } == ["backwards"] && anomalies.first?["position"] as? Int == forged)
  }

  @Test func aGrantStampedInTheFutureIsListedByTheAuditAtTheHeadAndWarnedOf() throws {
    let store = try CLIStore()
    try store.register(Self.app)
    try store.object(["access", "set", Self.app, "--service", "calendars", "--status", "denied"])
    // The person's grant, written by a machine whose clock says 2030.
    let forged = try Forger.append(
      store.directory.storePath, actor: "person", kind: 403,
      fields: ["1:s:\(Self.app)", "2:u:1", "3:u:3", "4:u:2", "5:u:2"], time: 1_900_000_000_000_000)
    // The next writable open applies it, as it applies any record another writer appended.
    try store.object(["calendar", "create", "Work"])
    let granted = try store.objects(["audit", "who-can", "--service", "calendars", "--format", "json"])
    #expect(granted.map { $0["client"] as? String } == [Self.app], "the grant is in force, so now lists it")
    #expect(granted.first?["decision"] as? Int == forged)
    let atNow = try store.objects(["audit", "state", "--at", "now", "--format", "json"])
    #expect(atNow.contains { $0["client"] as? String == Self.app && $0["status"] as? String == "fullAccess" })
    let verify = try store.run(["verify"])
    #expect(verify.status == 0 && verify.stderr.contains("ahead of this machine's clock"), "\(verify.stderr)")
  }
}
