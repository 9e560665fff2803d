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

    let milkID = try #require(milk["id"] as? String)
    // Not repeating: the reminder itself is completed.
    let done = try store.object(["reminder", "complete", milkID])
    #expect(done["id"] as? String == milkID && done["next"] == nil)
    #expect(done["completed"] as? Bool == true && done["completionDate"] as? String != nil)
    #expect(try store.objects(["reminder", "list"]).last?["id"] as? String == milkID, "completed ones come last")
    #expect(try store.objects(["reminder", "list", "--completed"]).compactMap { $0["id"] as? String } == [milkID])
    #expect(try store.objects(["reminder", "list", "--incomplete"]).count == 2)
    let table = try store.run(["reminder", "list", "--completed"]).stdout.split(separator: "\n")
    #expect(table.count == 2 && table[1].contains(" yes ") && table[1].hasSuffix("Buy milk"))

    let version = try #require(done["version"] as? Int)
    let undone = try store.object(["reminder", "complete", milkID, "--undo", "--if-version", String(version)])
    #expect(undone["completed"] as? Bool == false && undone["completionDate"] is NSNull)
    let head = try store.head()
    #expect(try store.run(["reminder", "complete", milkID, "--if-version", String(version)]).status == 67)
    #expect(try store.run(["reminder", "remove", milkID, "--if-version", String(version)]).status == 67)
    #expect(try store.head() == head)

    let removed = try store.run(["reminder", "remove", milkID])
    #expect(removed.status == 0 && removed.stdout.contains(milkID))
    #expect(try store.objects(["reminder", "list"]).count == 2)
    #expect(try store.run(["reminder", "remove", milkID]).status == 66)
    #expect(try store.run(["reminder", "complete", milkID]).status == 66)
  }

  /// A repeating reminder completes as in Reminders: the occurrence due becomes a completed
  /// reminder of its own and the series moves on to the next, as python-dateutil counts them.
  @Test func aRepeatingReminderCompletesItsDueOccurrenceAndMovesOn() throws {
    let store = try CLIStore()
    let errands = try store.calendar("Errands", ["--reminders"])
    let rent = try store.object([
      "reminder", "add", "--calendar", errands, "--title", "Pay rent", "--start", "2027-01-30T09:00:00",
      "--due", "2027-01-31T09:00:00", "--tz", "Europe/Berlin", "--rrule", "FREQ=MONTHLY;COUNT=3", "--priority", "2",
    ])
    let id = try #require(rent["id"] as? String)
    let oracle = try CLI.python(
      """
      import datetime
      from dateutil.rrule import rrulestr
      start = datetime.datetime(2027, 1, 31, 9)
      for due in rrulestr("FREQ=MONTHLY;COUNT=3", dtstart=start): print(due.isoformat())
      """, []
    ).split(separator: "\n").map(String.init)
    #expect(oracle.count == 3)
    var dues: [String] = []
    var completedIDs: [String] = []
    for round in 0..<3 {
      let done = try store.object(["reminder", "complete", id])
      #expect(done["completed"] as? Bool == true && done["completionDate"] as? String != nil)
      #expect(done["title"] as? String == "Pay rent" && done["priority"] as? Int == 2)
      dues.append(String((done["dueDate"] as? String ?? "").prefix(19)))
      completedIDs.append(done["id"] as? String ?? "")
      let next = done["next"] as? [String: Any]
      if round < 2 {
        #expect(done["id"] as? String != id && done["recurrenceRules"] as? [String] == [], "\(done)")
        #expect(next?["id"] as? String == id && next?["completed"] as? Bool == false, "\(done)")
        #expect(next?["recurrenceRules"] as? [String] == ["FREQ=MONTHLY;COUNT=\(2 - round)"], "\(done)")
        // The start moves with the due date: a day before it.
        let start = (next?["startDate"] as? String).map { String($0.prefix(10)) }
        #expect(start == String(oracle[round + 1].prefix(10)).replacingOccurrences(of: "-31", with: "-30"), "\(done)")
      } else {
        // The last occurrence: the reminder itself is completed, no copy made.
        #expect(done["id"] as? String == id && next == nil, "\(done)")
      }
    }
    #expect(dues == oracle, "\(dues) against dateutil's \(oracle)")
    let completed = try store.objects(["reminder", "list", "--completed"]).compactMap { $0["id"] as? String }
    #expect(Set(completed) == Set(completedIDs) && completed.count == 3)
    #expect(try store.objects(["reminder", "list", "--incomplete"]).isEmpty)
    let table = try store.run(["reminder", "complete", id, "--undo"])
    #expect(table.status == 0 && table.stdout.contains("Pay rent"))
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

  /// `reminder show` and `update`: only the fields given change, a due date moves as typed, an
  /// empty value clears, a stale `--if-version` is a conflict that writes nothing.
  @Test func aReminderIsShownAndItsDueDateChanges() throws {
    let store = try CLIStore()
    let errands = try store.calendar("Errands", ["--reminders"])
    let home = try store.calendar("Home", ["--reminders"])
    let rent = try store.object([
      "reminder", "add", "--calendar", errands, "--title", "Pay rent", "--due", "2026-12-01T09:00:00", "--tz",
      "Europe/Berlin", "--notes", "standing order?",
    ])
    let id = try #require(rent["id"] as? String)
    let shown = try store.object(["reminder", "show", id])
    #expect(shown["title"] as? String == "Pay rent" && shown["dueDate"] as? String == "2026-12-01T09:00:00+01:00")

    // A new time is read in the reminder's zone; the rest stays.
    let moved = try store.object(["reminder", "update", id, "--due", "2026-12-03T17:30:00"])
    #expect(moved["dueDate"] as? String == "2026-12-03T17:30:00+01:00", "\(moved)")
    #expect(moved["notes"] as? String == "standing order?" && moved["title"] as? String == "Pay rent")
    // --tz alone keeps the wall clock in the new zone; a list by title; notes cleared.
    let zoned = try store.object([
      "reminder", "update", id, "--tz", "America/New_York", "--calendar", "Home", "--notes", "",
    ])
    #expect(zoned["dueDate"] as? String == "2026-12-03T17:30:00-05:00" && zoned["calendarId"] as? String == home)
    #expect(zoned["notes"] is NSNull)
    let dated = try store.object(["reminder", "update", id, "--due", "2026-12-10", "--priority", "5"])
    #expect(
      dated["dueDate"] as? String == "2026-12-10" && dated["timeZone"] is NSNull && dated["priority"] as? Int == 5)
    // A date-only reminder given a time takes the person's zone; --tz floating makes it floating,
    // and a floating time stays floating when it changes.
    let timed = try store.object(
      ["reminder", "update", id, "--due", "2026-12-10T08:00:00"], environment: ["TZ": "Asia/Tokyo"])
    #expect(timed["dueDate"] as? String == "2026-12-10T08:00:00+09:00" && timed["timeZone"] as? String == "Asia/Tokyo")
    let floating = try store.object(["reminder", "update", id, "--tz", "floating"])
    #expect(floating["dueDate"] as? String == "2026-12-10T08:00:00" && floating["timeZone"] is NSNull)
    let later = try store.object(
      ["reminder", "update", id, "--due", "2026-12-10T09:00:00"], environment: ["TZ": "Europe/Berlin"])
    #expect(later["dueDate"] as? String == "2026-12-10T09:00:00" && later["timeZone"] is NSNull)

    let head = try store.head()
    let stale = try store.run(["reminder", "update", id, "--title", "x", "--if-version", "1"])
    #expect(stale.status == 67, "\(stale.stderr)")
    let nothing = try store.run(["reminder", "update", id])
    #expect(nothing.status == 64, "\(nothing.stderr)")
    let badDue = try store.run(["reminder", "update", id, "--due", "someday"])
    #expect(badDue.status == 65 && badDue.stderr.contains("someday"), "\(badDue.stderr)")
    #expect(try store.head() == head, "refused updates write nothing")
    let cleared = try store.object(["reminder", "update", id, "--due", ""])
    #expect(cleared["dueDate"] is NSNull)
  }

  /// `reminder list --due`: today, the week and overdue in the days of `$TZ`, as python-dateutil
  /// counts them; a date-only reminder due today is not overdue until the day is over.
  @Test func dueListsFollowTheReadersDays() throws {
    let store = try CLIStore()
    let errands = try store.calendar("Errands", ["--reminders"])
    let zone = "Pacific/Auckland"
    let phrases = ["yesterday", "today", "+3d", "+9d"]
    let before = try CLI.python(
      """
      import sys, datetime, zoneinfo
      print(datetime.datetime.now(zoneinfo.ZoneInfo(sys.argv[1])).date().isoformat())
      """, [zone])
    for phrase in phrases {
      let added = try CLI.run(
        [
          "reminder", "add", "--calendar", errands, "--title", phrase, "--due", phrase, "--store",
          store.directory.storePath,
        ],
        environment: ["TZ": zone])
      try #require(added.status == 0, "\(added.stderr)")
    }
    func due(_ which: String) throws -> [String] {
      let result = try CLI.run(
        ["reminder", "list", "--due", which, "--format", "json", "--store", store.directory.storePath],
        environment: ["TZ": zone])
      try #require(result.status == 0, "\(result.stderr)")
      return (try json(result.stdout) as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }
    let (today, week, overdue) = (try due("today"), try due("week"), try due("overdue"))
    let after = try CLI.python(
      """
      import sys, datetime, zoneinfo
      print(datetime.datetime.now(zoneinfo.ZoneInfo(sys.argv[1])).date().isoformat())
      """, [zone])
    // Only when no midnight of Auckland fell between the two readings.
    if before == after {
      #expect(today == ["today"], "\(today)")
      #expect(week == ["today", "+3d"], "\(week)")
      #expect(overdue == ["yesterday"], "\(overdue)")
    }
    let completed = try store.run(["reminder", "list", "--due", "today", "--completed"])
    #expect(completed.status == 64, "\(completed.stderr)")
  }
}
