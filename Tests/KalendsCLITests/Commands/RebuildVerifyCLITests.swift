import Foundation
import Kalends
import KalendsTestSupport
import Testing

@Suite("Command line: rebuild and verify")
struct RebuildVerifyCLITests {
  @Test func verifyComparesProjectionsWithARebuildAndRebuildReplaysTheLog() throws {
    let directory = TemporaryDirectory()
    let head: LogPosition
    do {
      let events = EventStore(store: try Store.create(at: directory.storePath))
      let calendar = try events.save(EventCalendar(title: "Work"))
      for day in 1...20 {
        var event = Event(
          calendarID: calendar.id, title: "day \(day)",
          start: LocalDateTime(year: 2026, month: 3, day: day, hour: 9),
          end: LocalDateTime(year: 2026, month: 3, day: day, hour: 10), timeZone: "Europe/Berlin")
        if day % 5 == 0 { event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY")] }
        try events.save(event, span: .thisEvent)
      }
      head = try events.store.head().position
    }
    let store = ["--store", directory.storePath]

    let verified = try CLI.run(["verify", "--format", "json"] + store)
    #expect(verified.status == 0, "\(verified.stderr)")
    let report = try #require(try json(verified.stdout) as? [String: Any])
    let projections = try #require(report["projections"] as? [String: Any])
    #expect(projections["consistent"] as? Bool == true)
    #expect(projections["position"] as? Int == Int(head.rawValue))
    let databases = try #require(projections["databases"] as? [String: [String: Any]])
    // The index holds blocks of 1 to 48 instances; where blocks end depends on the random item ids.
    let instances = try Store.open(at: directory.storePath).indexedInstanceCount()
    let blocks = databases["range.instances"]?["entries"] as? Int ?? 0
    #expect(instances > 20)
    #expect((instances + 47) / 48 <= blocks && blocks <= instances, "\(blocks) blocks for \(instances) instances")

    let rebuilt = try CLI.run(["rebuild", "--format", "json"] + store)
    #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
    let summary = try #require(try json(rebuilt.stdout) as? [String: Any])
    #expect(summary["recordsReplayed"] as? Int == Int(head.rawValue))
    let after = try #require(summary["databases"] as? [String: [String: Any]])
    #expect(after["range.instances"]?["sha256"] as? String == databases["range.instances"]?["sha256"] as? String)

    let table = try CLI.run(["verify"] + store)
    #expect(table.status == 0 && table.stdout.contains("equal a rebuild"))
  }
}
