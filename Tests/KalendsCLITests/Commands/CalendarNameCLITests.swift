import Foundation
import KalendsTestSupport
import Testing

/// Calendars named as people name them: by title (exact, then without case, then by its start),
/// or by the start of the id, with an ambiguity refused and its candidates listed.
@Suite("Command line: calendars by name")
struct CalendarNameCLITests {
  @Test func aCalendarIsNamedByItsTitleOrTheStartOfItOrOfItsID() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let workout = try store.calendar("Workout")
    let home = try store.calendar("Home")
    let add = ["event", "add", "--title", "x", "--start", "2026-03-02"]
    for (name, expected) in [
      ("Work", work), ("work", work), ("WORKOUT", workout), ("Worko", workout), ("ho", home),
      (String(home.prefix(8)), home), (work, work),
    ] {
      let event = try store.object(add + ["--calendar", name])
      #expect(event["calendarId"] as? String == expected, "--calendar \(name)")
    }
    // `Wor` begins two titles: refused, both named, nothing written.
    let before = try store.objects(["event", "list"]).count
    let ambiguous = try store.run(add + ["--calendar", "Wor"])
    #expect(ambiguous.status == 65, "\(ambiguous.stderr)")
    #expect(ambiguous.stderr.contains("Work (\(work))") && ambiguous.stderr.contains("Workout (\(workout))"))
    let nowhere = try store.run(add + ["--calendar", "Garden"])
    #expect(nowhere.status == 66 && nowhere.stderr.contains("no calendar is named \"Garden\""), "\(nowhere.stderr)")
    #expect(try store.objects(["event", "list"]).count == before)
    // Windows, updates and removals take names too.
    #expect(
      try store.objects(["events", "--from", "2026-03-01", "--to", "2026-03-09", "--calendar", "home"]).count == 2)
    let renamed = try store.object(["calendar", "update", "ho", "--title", "House"])
    #expect(renamed["id"] as? String == home && renamed["title"] as? String == "House")
  }

  @Test func aSecondCalendarOfATitleNeedsForceAndThenItsID() throws {
    let store = try CLIStore()
    let first = try store.calendar("Work")
    let twice = try store.run(["calendar", "create", "work"])
    #expect(twice.status == 67 && twice.stderr.contains(first), "\(twice.stderr)")
    #expect(try store.objects(["calendar", "list"]).count == 1, "nothing created")
    let second = try store.calendar("Work", ["--force"])
    let ambiguous = try store.run(["event", "add", "--calendar", "Work", "--title", "x", "--start", "2026-03-02"])
    #expect(ambiguous.status == 65 && ambiguous.stderr.contains(first) && ambiguous.stderr.contains(second))
    let event = try store.object([
      "event", "add", "--calendar", String(second.prefix(6)), "--title", "x", "--start", "2026-03-02",
    ])
    #expect(event["calendarId"] as? String == second)
  }
}
