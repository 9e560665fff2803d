import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: reminders")
struct ReminderCommandTests {
  @Test func remindersAreAddedListedCompletedAndRemoved() throws {
    let store = try CLIStore()
    let errands = try store.calendar("Errands", ["--reminders"])
    let home = try store.calendar("Home", ["--events-and-reminders"])
    let milk = try store.object([
      "reminder", "add", "--calendar", errands, "--title", "Buy milk", "--due", "2026-03-30", "--priority", "1",
    ])
    #expect(milk["dueDate"] as? String == "2026-03-30" && milk["timeZone"] is NSNull)
    #expect(milk["priority"] as? Int == 1 && milk["completed"] as? Bool == false)
    #expect(milk["completionDate"] is NSNull && milk["calendarId"] as? String == errands)
    let call = try store.object([
      "reminder", "add", "--calendar", errands, "--title", "Call", "--due", "2026-03-29T18:00:00", "--tz",
      "Europe/Berlin", "--alarm", "-1h", "--rrule", "FREQ=WEEKLY", "--notes", "about Easter",
    ])
    #expect(call["dueDate"] as? String == "2026-03-29T18:00:00+02:00" && call["timeZone"] as? String == "Europe/Berlin")
    #expect(call["recurrenceRules"] as? [String] == ["FREQ=WEEKLY"] && call["notes"] as? String == "about Easter")
    #expect(call["alarms"] as? [[String: Int]] == [["relativeOffset": -3600]])
    let plant = try store.object(["reminder", "add", "--calendar", home, "--title", "Water plants"])
    #expect(plant["dueDate"] is NSNull)

    let all = try store.objects(["reminder", "list"])
    #expect(all.compactMap { $0["title"] as? String } == ["Call", "Buy milk", "Water plants"], "by due date")
    let errandsOnly = try store.objects(["reminder", "list", "--calendar", errands])
    #expect(errandsOnly.count == 2)

    let callID = try #require(call["id"] as? String)
    let done = try store.object(["reminder", "complete", callID])
    #expect(done["completed"] as? Bool == true && done["completionDate"] as? String != nil)
    #expect(try store.objects(["reminder", "list"]).last?["id"] as? String == callID, "completed ones come last")
    #expect(try store.objects(["reminder", "list", "--completed"]).compactMap { $0["id"] as? String } == [callID])
    #expect(try store.objects(["reminder", "list", "--incomplete"]).count == 2)
    let table = try store.run(["reminder", "list", "--completed"]).stdout.split(separator: "\n")
    #expect(table.count == 2 && table[1].contains(" yes ") && table[1].hasSuffix("Call"))

    let version = try #require(done["version"] as? Int)
    let undone = try store.object(["reminder", "complete", callID, "--undo", "--if-version", String(version)])
    #expect(undone["completed"] as? Bool == false && undone["completionDate"] is NSNull)
    let head = try store.head()
    #expect(try store.run(["reminder", "complete", callID, "--if-version", String(version)]).status == 67)
    #expect(try store.run(["reminder", "remove", callID, "--if-version", String(version)]).status == 67)
    #expect(try store.head() == head)

    let removed = try store.run(["reminder", "remove", callID])
    #expect(removed.status == 0 && removed.stdout.contains(callID))
    #expect(try store.objects(["reminder", "list"]).count == 2)
    #expect(try store.run(["reminder", "remove", callID]).status == 66)
    #expect(try store.run(["reminder", "complete", callID]).status == 66)
  }

  @Test(arguments: [
    (["--due", "2026-02-30"], "error: --due: "),
    (["--due", "2026-03-29T18:00:00", "--tz", "Europe/Nowhere"], "error: --tz: "),
    (["--due", "2026-03-29", "--rrule", "FREQ=WEEKLY;COUNT=0"], "error: --rrule: "),
    (["--rrule", "FREQ=WEEKLY"], "error: a recurring reminder needs a due date"),
    (["--priority", "10"], "error: priority 10 is outside 0…9"),
    (["--alarm", "-1y"], "error: --alarm: "),
  ])
  func invalidInputIsRefusedWithStatus65AndWritesNothing(_ arguments: [String], _ message: String) throws {
    let store = try CLIStore()
    let errands = try store.calendar("Errands", ["--reminders"])
    let head = try store.head()
    let result = try store.run(["reminder", "add", "--calendar", errands, "--title", "T"] + arguments)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(try store.head() == head)
  }

  @Test func aReminderNeedsAListThatHoldsReminders() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let head = try store.head()
    let refused = try store.run(["reminder", "add", "--calendar", work, "--title", "T"])
    #expect(refused.status == 65 && refused.stderr.hasPrefix("error: calendar \(work) does not hold reminders"))
    let missing = try store.run(["reminder", "list", "--calendar", "00000000-0000-4000-8000-0000000000AA"])
    #expect(missing.status == 66)
    #expect(try store.head() == head)
  }
}
