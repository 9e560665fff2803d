import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: range queries")
struct EventsCommandTests {
  /// Without --from and --to, `events` lists the week from the start of today in the person's
  /// zone, and shows times in it.
  @Test func eventsWithoutAWindowListTheWeekFromToday() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let tz = ["TZ": "Pacific/Auckland"]
    for (title, start) in [("Earlier", "today 00:00"), ("Tomorrow", "tomorrow 10:00"), ("Later", "+8d")] {
      _ = try store.object(["event", "add", "--calendar", work, "--title", title, "--start", start], environment: tz)
    }
    let listed = try store.run(["events", "--format", "json"], environment: tz)
    let found = try #require(try json(listed.stdout) as? [[String: Any]], "\(listed.stderr)")
    #expect(found.map { $0["title"] as? String } == ["Earlier", "Tomorrow"])
    let start = try #require(found.last?["instanceStart"] as? String)
    #expect(start.hasSuffix("T10:00:00+13:00") || start.hasSuffix("T10:00:00+12:00"), "\(start)")
  }

  @Test func eventsListsWhatOverlapsTheWindowInTheViewersZone() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let home = try store.calendar("Home")
    _ = try store.object([
      "event", "add", "--calendar", work, "--title", "Berlin call", "--start", "2026-06-01T09:00:00", "--end",
      "2026-06-01T10:00:00", "--tz", "Europe/Berlin",
    ])
    _ = try store.object([
      "event", "add", "--calendar", home, "--title", "Floating run", "--start", "2026-06-01T07:00:00", "--end",
      "2026-06-01T08:00:00", "--tz", "floating",
    ])
    _ = try store.object([
      "event", "add", "--calendar", work, "--title", "Weekly", "--start", "2026-05-04T12:00:00Z", "--end",
      "2026-05-04T12:30:00Z", "--rrule", "FREQ=WEEKLY;BYDAY=MO",
    ])
    // June 1, 2026 in New York: [04:00Z June 1, 04:00Z June 2).
    let window = ["events", "--from", "2026-06-01", "--to", "2026-06-02", "--tz", "America/New_York"]
    let found = try store.objects(window)
    #expect(found.map { $0["title"] as? String } == ["Berlin call", "Floating run", "Weekly"])
    #expect(found[0]["instanceStart"] as? String == "2026-06-01T03:00:00-04:00")
    #expect(found[1]["instanceStart"] as? String == "2026-06-01T07:00:00-04:00")
    #expect(found[2]["occurrenceDate"] as? String == "2026-06-01T12:00:00Z")

    let onlyHome = try store.objects(window + ["--calendar", home])
    #expect(onlyHome.map { $0["title"] as? String } == ["Floating run"])

    let streamed = try store.run(window + ["--format", "jsonl"])
    #expect(streamed.status == 0)
    let lines = try streamed.stdout.split(separator: "\n").map { try json(String($0)) as? [String: Any] }
    #expect(lines.map { $0?["title"] as? String } == found.map { $0["title"] as? String })

    let table = try store.run(window)
    #expect(table.status == 0 && table.stdout.contains("Floating run"))

    let far = try store.objects(["events", "--from", "2076-06-01T00:00:00Z", "--to", "2076-06-08T00:00:00Z"])
    #expect(far.map { $0["occurrenceDate"] as? String } == ["2076-06-01T12:00:00Z"])
  }

  @Test func aBadWindowIsInvalidInput() throws {
    let store = try CLIStore()
    for arguments in [
      ["events", "--from", "2026-06-02", "--to", "2026-06-01"],
      ["events", "--from", "yesterday", "--to", "2026-06-01"],
      ["events", "--from", "2026-06-01", "--to", "2026-06-02", "--tz", "Mars/Base"],
    ] {
      let result = try store.run(arguments)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: "))
    }
  }
}
