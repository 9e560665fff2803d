import Foundation
import KalendsTestSupport
import Testing

/// `kalends alarms`: what will notify, in the person's zone.
@Suite("Command line: alarms")
struct AlarmsCommandTests {
  @Test func theAlarmsOfAWindowInTheZoneGiven() throws {
    let store = try CLIStore()
    _ = try store.calendar("Work")
    _ = try store.calendar("Errands", ["--reminders"])
    let tz = ["TZ": "America/New_York"]
    _ = try store.object(
      [
        "event", "add", "--calendar", "Work", "--title", "Standup", "--start", "2026-11-02 09:00", "--rrule",
        "FREQ=DAILY;COUNT=2", "--alarm", "-10m",
      ], environment: tz)
    _ = try store.object(
      ["reminder", "add", "--calendar", "Errands", "--title", "Pay rent", "--due", "2026-11-02", "--alarm", "-1h"],
      environment: tz)
    let listed = try store.run(
      ["alarms", "--from", "2026-11-01", "--to", "2026-11-04", "--format", "json"], environment: tz)
    let alarms = try #require(try json(listed.stdout) as? [[String: Any]], "\(listed.stderr)")
    #expect(alarms.map { $0["title"] as? String } == ["Pay rent", "Standup", "Standup"])
    #expect(
      alarms.map { $0["fireTime"] as? String } == [
        "2026-11-01T23:00:00-05:00", "2026-11-02T08:50:00-05:00", "2026-11-03T08:50:00-05:00",
      ])
    #expect(alarms.map { $0["kind"] as? String } == ["reminder", "event", "event"])
    let table = try store.run(["alarms", "--from", "2026-11-01", "--to", "2026-11-03", "--tz", "UTC"])
    #expect(table.status == 0 && table.stdout.contains("2026-11-02T13:50:00Z") && table.stdout.contains("-10m"))
    let bad = try store.run(["alarms", "--from", "2026-11-03", "--to", "2026-11-01"])
    #expect(bad.status == 65, "\(bad.stderr)")
  }
}
