import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: refused calls are counted exactly, across processes")
struct RefusalCountCLITests {
  static let app = "com.example.planner"

  @Test func refusalsInSeparateProcessesAreCountedExactlyInAtMostTwoRecordsAMinute() throws {
    let store = try CLIStore()
    try store.register(Self.app)
    try store.object(["access", "set", Self.app, "--service", "calendars", "--status", "denied"])
    let calendar = try store.calendar("Work")
    let started = Date()
    for _ in 0..<12 {
      let refused = try store.run(["event", "list", "--calendar", calendar, "--as", Self.app])
      #expect(refused.status == 68, "\(refused.stderr)")
    }
    let rows = try store.objects(["audit", "history", "--client", Self.app, "--format", "json"])
      .filter { $0["kind"] as? String == "accessAttemptRefused" }
    let total = rows.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) }
    #expect(total == 12, "\(rows)")
    let logged = rows.filter { !($0["position"] is NSNull) }
    // Two records a minute at most: the first refusal, and the rest once the minute is over.
    let minutes = Int(Date().timeIntervalSince(started) / 60) + 2
    #expect(logged.count <= 2 * minutes, "\(logged.count) records for 12 refusals")
    #expect(rows.filter { $0["pending"] as? Bool == true }.allSatisfy { $0["position"] is NSNull })
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func ownerOnlyAttemptsAreCountedAlike() throws {
    let store = try CLIStore()
    try store.register(Self.app)
    let started = Date()
    for command in [["log", "tail"], ["status"], ["log", "tail"], ["audit", "history"], ["log", "tail"]] {
      #expect(try store.run(command + ["--as", Self.app]).status == 68)
    }
    let rows = try store.objects(["audit", "history", "--client", Self.app, "--format", "json"])
      .filter { $0["kind"] as? String == "ownerActionRefused" }
    #expect(rows.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) } == 5, "\(rows)")
    let minutes = Int(Date().timeIntervalSince(started) / 60) + 2
    #expect(rows.filter { !($0["position"] is NSNull) }.count <= 2 * minutes)
    #expect(try store.run(["verify"]).status == 0)
  }
}
