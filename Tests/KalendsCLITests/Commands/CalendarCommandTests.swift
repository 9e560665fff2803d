import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: calendars")
struct CalendarCommandTests {
  @Test func createPrintsTheCalendarAndListShowsItByTitle() throws {
    let store = try CLIStore()
    let work = try store.object(["calendar", "create", "Work", "--color", "#a1b2c3"])
    #expect(work["title"] as? String == "Work")
    #expect(work["color"] as? String == "#A1B2C3")
    #expect(work["allowedEntityTypes"] as? [String] == ["events"])
    #expect(work["allowsContentModifications"] as? Bool == true)
    #expect(((work["source"] as? [String: Any])?["kind"]) as? String == "local")
    #expect((work["version"] as? Int ?? 0) > 1)
    let errands = try store.calendar("Errands", ["--reminders"])
    let shared = try store.calendar("Shared", ["--events-and-reminders", "--read-only"])

    let all = try store.objects(["calendar", "list"])
    #expect(all.compactMap { $0["title"] as? String } == ["Errands", "Shared", "Work"])
    #expect(all.first { $0["id"] as? String == shared }?["allowsContentModifications"] as? Bool == false)
    #expect(all.first { $0["id"] as? String == shared }?["allowedEntityTypes"] as? [String] == ["events", "reminders"])
    let forReminders = try store.objects(["calendar", "list", "--for", "reminders"])
    #expect(forReminders.compactMap { $0["id"] as? String } == [errands, shared])

    let table = try store.run(["calendar", "list"]).stdout.split(separator: "\n")
    #expect(table.count == 4)
    #expect(table[0].hasPrefix("ID ") && table[0].hasSuffix("TITLE"))
    #expect(table[2].contains(shared) && table[2].hasSuffix("Shared (read-only)"))
    let titleColumn = table[0].range(of: "TITLE")!.lowerBound.utf16Offset(in: table[0])
    #expect(table.dropFirst().allSatisfy { $0.dropFirst(titleColumn).first?.isLetter == true }, "aligned")
  }

  @Test func listAsAnAppShowsTheKindsItMayList() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    _ = try store.calendar("Errands", ["--reminders"])
    let planner = ["--as", "com.example.planner"]
    #expect(
      try store.run([
        "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-write-only=Bookings.",
        "--usage", "calendars-full=Agenda.",
      ]).status == 0)
    // No access yet: it may list neither kind, and is refused.
    #expect(try store.run(["calendar", "list"] + planner).status == 68)
    let request = ["access", "request", "--service", "calendars", "--answer", "allow"] + planner
    #expect(try store.run(request + ["--level", "write-only"]).status == 0)
    // Write-only to calendars, nothing for reminders: the one virtual calendar, not a refusal.
    let writeOnly = try store.objects(["calendar", "list"] + planner)
    #expect(writeOnly.map { $0["title"] as? String } == ["Calendar"])
    #expect(writeOnly.map { $0["id"] as? String } == [work])
    #expect(try store.run(["calendar", "list", "--for", "reminders"] + planner).status == 68)
    #expect(try store.run(request).status == 0)
    #expect(try store.objects(["calendar", "list"] + planner).compactMap { $0["title"] as? String } == ["Work"])
  }

  @Test func removeTakesTheCalendarAndItsItemsAway() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let event = try store.object([
      "event", "add", "--calendar", work, "--title", "Standup", "--start", "2026-03-29",
    ])
    let removed = try store.run(["calendar", "remove", work])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains(work))
    #expect(try store.objects(["calendar", "list"]).isEmpty)
    #expect(try store.run(["event", "show", try #require(event["id"] as? String)]).status == 66)
    let again = try store.run(["calendar", "remove", work])
    #expect(again.status == 66)
    #expect(again.stderr.hasPrefix("error: no calendar \(work)"))
  }

  @Test func updateChangesOnlyTheGivenFields() throws {
    let store = try CLIStore()
    let work = try store.object(["calendar", "create", "Work", "--color", "#102030"])
    let id = try #require(work["id"] as? String)
    let renamed = try store.object(["calendar", "update", id, "--title", "Office", "--read-only"])
    #expect(renamed["title"] as? String == "Office" && renamed["color"] as? String == "#102030")
    #expect(renamed["allowsContentModifications"] as? Bool == false)
    #expect((renamed["version"] as? Int ?? 0) > (work["version"] as? Int ?? .max))
    let refused = try store.run(["event", "add", "--calendar", id, "--title", "No", "--start", "2026-03-29"])
    #expect(refused.status == 68, "a read-only calendar refuses items: access refused")
    let writable = try store.object(["calendar", "update", id, "--writable", "--color", "#ffffff"])
    #expect(writable["allowsContentModifications"] as? Bool == true && writable["color"] as? String == "#FFFFFF")
    #expect(try store.run(["calendar", "update", id]).status == 64, "nothing to change")
  }

  @Test func aStaleVersionIsAConflictAndChangesNothing() throws {
    let store = try CLIStore()
    let work = try store.object(["calendar", "create", "Work"])
    let id = try #require(work["id"] as? String)
    let stale = try #require(work["version"] as? Int)
    _ = try store.object(["calendar", "update", id, "--title", "Office", "--if-version", String(stale)])
    let head = try store.head()
    for arguments in [["update", id, "--title", "Mine"], ["remove", id]] {
      let refused = try store.run(["calendar"] + arguments + ["--if-version", String(stale)])
      #expect(refused.status == 67)
      #expect(refused.stderr.hasPrefix("error: item \(id) changed since it was fetched (version \(stale), now "))
    }
    #expect(try store.head() == head)
    #expect(try store.run(["calendar", "remove", id, "--if-version", String(stale), "--force"]).status == 64)
    #expect(try store.run(["calendar", "remove", id, "--force"]).status == 0)
  }

  @Test func invalidInputIsRefusedWithStatus65() throws {
    let store = try CLIStore()
    let head = try store.head()
    for arguments in [
      ["create", "Work", "--color", "blue"], ["create", "Work", "--color", "#12345g"],
    ] {
      let result = try store.run(["calendar"] + arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(result.stderr.hasPrefix("error: --color: "))
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
    // Not an id, so a name: none answers to it.
    let unnamed = try store.run(["calendar", "remove", "42"])
    #expect(unnamed.status == 66 && unnamed.stderr.hasPrefix("error: ID: no calendar is named \"42\""))
    #expect(try store.head() == head)
  }
}
