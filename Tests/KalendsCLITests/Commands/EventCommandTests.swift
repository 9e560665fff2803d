import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: events")
struct EventCommandTests {
  @Test func aSingleEventIsAddedShownUpdatedAndRemoved() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let added = try store.object([
      "event", "add", "--calendar", calendar, "--title", "Review", "--start", "2026-03-29T09:30:00",
      "--end", "2026-03-29T10:00:00", "--tz", "Europe/Berlin", "--location", "Room 1", "--alarm", "-15m",
      "--alarm", "-1d", "--availability", "tentative", "--status", "confirmed", "--url", "https://example.com",
    ])
    let id = try #require(added["id"] as? String)
    #expect(added["calendarId"] as? String == calendar)
    #expect(added["start"] as? String == "2026-03-29T09:30:00+02:00")
    #expect(added["end"] as? String == "2026-03-29T10:00:00+02:00")
    #expect(added["timeZone"] as? String == "Europe/Berlin" && added["allDay"] as? Bool == false)
    #expect(added["location"] as? String == "Room 1" && added["notes"] is NSNull)
    #expect(added["availability"] as? String == "tentative" && added["status"] as? String == "confirmed")
    #expect(added["alarms"] as? [[String: Int]] == [["relativeOffset": -900], ["relativeOffset": -86_400]])
    #expect(added["recurrenceRules"] as? [String] == [] && added["occurrenceDate"] is NSNull)
    #expect((added["externalId"] as? String)?.count == 36 && added["created"] as? String != nil)

    let shown = try store.object(["event", "show", id])
    #expect(NSDictionary(dictionary: shown) == NSDictionary(dictionary: added), "show prints what add saved")
    let table = try store.run(["event", "show", id]).stdout
    #expect(table.split(separator: "\n").contains { $0.hasPrefix("alarms ") && $0.hasSuffix("  -15m, -1d") })
    #expect(!table.contains("notes"), "empty fields stay out of the table")

    let version = try #require(added["version"] as? Int)
    let updated = try store.object([
      "event", "update", id, "--title", "Design review", "--start", "2026-03-29T11:00:00", "--location", "",
      "--if-version", String(version),
    ])
    #expect(updated["id"] as? String == id && updated["title"] as? String == "Design review")
    #expect(updated["start"] as? String == "2026-03-29T11:00:00+02:00")
    #expect(updated["end"] as? String == "2026-03-29T11:30:00+02:00", "the end moves with the start")
    #expect(updated["location"] is NSNull, "an empty value clears")
    #expect(updated["availability"] as? String == "tentative", "fields not given stay")
    #expect((updated["version"] as? Int ?? 0) > version)

    let head = try store.head()
    let stale = try store.run(["event", "update", id, "--title", "Mine", "--if-version", String(version)])
    #expect(stale.status == 67)
    #expect(stale.stderr.hasPrefix("error: item \(id) changed since it was fetched"))
    let staleRemoval = try store.run(["event", "remove", id, "--if-version", String(version)])
    #expect(staleRemoval.status == 67)
    #expect(try store.head() == head, "a conflict writes nothing")
    #expect(try store.object(["event", "show", id])["title"] as? String == "Design review")

    let removed = try store.run(["event", "remove", id])
    #expect(removed.status == 0 && removed.stdout == "removed event \(id)\n")
    let gone = try store.run(["event", "show", id])
    #expect(gone.status == 66 && gone.stderr.hasPrefix("error: no item \(id)"))
  }

  @Test func occurrencesOfASeriesAreShownChangedAndRemovedBySpan() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let series = try store.object([
      "event", "add", "--calendar", calendar, "--title", "Standup", "--start", "2026-03-29T09:00:00",
      "--end", "2026-03-29T09:15:00", "--tz", "Europe/Berlin", "--rrule", "FREQ=WEEKLY;COUNT=5",
    ])
    let id = try #require(series["id"] as? String)
    #expect(series["recurrenceRules"] as? [String] == ["FREQ=WEEKLY;COUNT=5"])

    // The same occurrence, named by its date, its wall-clock start, or its instant.
    for name in ["2026-04-05", "2026-04-05T09:00:00", "2026-04-05T07:00:00Z"] {
      let occurrence = try store.object(["event", "show", id, "--occurrence", name])
      #expect(occurrence["occurrenceDate"] as? String == "2026-04-05T09:00:00+02:00", "\(name)")
      #expect(occurrence["start"] as? String == "2026-04-05T09:00:00+02:00")
      #expect(occurrence["isDetached"] as? Bool == false)
    }
    let notOne = try store.run(["event", "show", id, "--occurrence", "2026-04-06"])
    #expect(notOne.status == 66)
    #expect(try store.run(["event", "show", id, "--occurrence", "2026-04-05T10:00:00"]).status == 66)

    let head = try store.head()
    let spanless = try store.run(["event", "update", id, "--occurrence", "2026-04-05", "--title", "Moved"])
    #expect(spanless.status == 65 && spanless.stderr.hasPrefix("error: --span: event \(id) repeats"))
    #expect(try store.head() == head)

    let detached = try store.object([
      "event", "update", id, "--occurrence", "2026-04-05", "--span", "this", "--title", "Moved",
      "--start", "2026-04-05T10:00:00",
    ])
    #expect(detached["id"] as? String == id && detached["isDetached"] as? Bool == true)
    #expect(detached["occurrenceDate"] as? String == "2026-04-05T09:00:00+02:00")
    #expect(detached["start"] as? String == "2026-04-05T10:00:00+02:00")
    #expect(try store.object(["event", "show", id])["title"] as? String == "Standup", "the series stays")
    let again = try store.object([
      "event", "update", id, "--occurrence", "2026-04-05", "--span", "this", "--notes", "x",
    ])
    #expect(again["title"] as? String == "Moved" && again["notes"] as? String == "x", "a detached one changes again")

    let removed = try store.run(["event", "remove", id, "--occurrence", "2026-04-12", "--span", "this"])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("2026-04-12T09:00:00+02:00"))
    #expect(try store.object(["event", "show", id])["exceptionDates"] as? [String] == ["2026-04-12T09:00:00+02:00"])
    #expect(try store.run(["event", "show", id, "--occurrence", "2026-04-12"]).status == 66)

    let continued = try store.object([
      "event", "update", id, "--occurrence", "2026-04-19", "--span", "future", "--title", "Later",
    ])
    let newID = try #require(continued["id"] as? String)
    #expect(newID != id, "a split prints the new series")
    #expect(continued["start"] as? String == "2026-04-19T09:00:00+02:00")
    #expect(continued["recurrenceRules"] as? [String] == ["FREQ=WEEKLY;COUNT=2"])
    let ended = try store.object(["event", "show", id])
    #expect(ended["recurrenceRules"] as? [String] == ["FREQ=WEEKLY;UNTIL=20260419T065959Z"])
    let listed = try store.objects(["event", "list", "--calendar", calendar])
    #expect(listed.compactMap { $0["id"] as? String } == [id, newID])

    let ending = try store.run(["event", "remove", newID, "--occurrence", "2026-04-26", "--span", "future"])
    #expect(ending.status == 0 && ending.stdout.contains("from 2026-04-26T09:00:00+02:00 on"))
    #expect(try store.object(["event", "show", newID])["recurrenceRules"] as? [String] != ["FREQ=WEEKLY;COUNT=2"])
    #expect(try store.run(["event", "remove", id]).stdout == "removed event \(id)\n", "no occurrence: the series")
    #expect(try store.run(["event", "show", id]).status == 66)
  }

  @Test func aCancelledOccurrenceIsMarkedInTables() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let series = try #require(
      try store.object([
        "event", "add", "--calendar", calendar, "--title", "Standup", "--start", "2026-03-02T09:00:00", "--end",
        "2026-03-02T09:15:00", "--rrule", "FREQ=WEEKLY;COUNT=3",
      ])["id"] as? String)
    try store.object([
      "event", "update", series, "--occurrence", "2026-03-09", "--span", "this", "--status", "canceled",
    ])
    let window = try store.run(["events", "--from", "2026-03-01", "--to", "2026-03-31", "--calendar", calendar])
    let lines = window.stdout.split(separator: "\n").filter { $0.contains("Standup") }
    #expect(lines.count == 3, "\(window.stdout)")
    #expect(lines.filter { $0.contains("Standup [canceled]") }.count == 1, "\(window.stdout)")
    #expect(lines.first { $0.contains("[canceled]") }?.contains("2026-03-09") == true, "\(window.stdout)")
    // `event list` shows each series once; a cancelled event is marked there too.
    try store.object([
      "event", "add", "--calendar", calendar, "--title", "Offsite", "--start", "2026-03-20", "--status", "canceled",
    ])
    let listed = try store.run(["event", "list", "--calendar", calendar]).stdout
    #expect(listed.contains("Offsite [canceled]") && !listed.contains("Standup [canceled]"), "\(listed)")
  }

  @Test func datesComeInAndGoOutAsRFC3339() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    func add(_ arguments: [String]) throws -> [String: Any] {
      try store.object(["event", "add", "--calendar", calendar, "--title", "T"] + arguments)
    }
    let day = try add(["--start", "2026-03-29"])
    #expect(day["start"] as? String == "2026-03-29" && day["end"] as? String == "2026-03-30")
    #expect(day["allDay"] as? Bool == true && day["timeZone"] is NSNull)
    let days = try add(["--start", "2026-03-29", "--end", "2026-04-01"])
    #expect(days["end"] as? String == "2026-04-01", "an all-day end is exclusive")
    let allDay = try add(["--start", "2026-03-29T09:00:00", "--end", "2026-03-30T17:00:00", "--all-day"])
    #expect(allDay["start"] as? String == "2026-03-29" && allDay["end"] as? String == "2026-03-31")

    let floating = try add(["--start", "2026-03-29T09:00:00", "--end", "2026-03-29T10:00:00", "--tz", "floating"])
    #expect(floating["start"] as? String == "2026-03-29T09:00:00" && floating["timeZone"] is NSNull)
    // Without --tz, a wall-clock time is in the person's zone ($TZ), as Calendar makes an event.
    let local = try store.object(
      ["event", "add", "--calendar", calendar, "--title", "T", "--start", "2026-03-29T09:00:00"],
      environment: ["TZ": "Asia/Tokyo"])
    #expect(local["start"] as? String == "2026-03-29T09:00:00+09:00" && local["timeZone"] as? String == "Asia/Tokyo")
    let localID = try #require(local["id"] as? String)
    let madeFloating = try store.object(["event", "update", localID, "--tz", "floating"])
    #expect(madeFloating["start"] as? String == "2026-03-29T09:00:00" && madeFloating["timeZone"] is NSNull)
    // A floating event stays floating when its time changes, whatever the person's zone.
    let stillFloating = try store.object(
      ["event", "update", localID, "--start", "2026-03-29T11:00:00"], environment: ["TZ": "Europe/Berlin"])
    #expect(
      stillFloating["start"] as? String == "2026-03-29T11:00:00"
        && stillFloating["end"] as? String == "2026-03-29T12:00:00")
    #expect(stillFloating["timeZone"] is NSNull)
    // An all-day event given a time takes the person's zone.
    let dayID = try #require(day["id"] as? String)
    let timed = try store.object(
      ["event", "update", dayID, "--start", "2026-03-29T08:00:00", "--end", "2026-03-29T09:00:00"],
      environment: ["TZ": "Europe/Berlin"])
    #expect(timed["start"] as? String == "2026-03-29T08:00:00+02:00" && timed["timeZone"] as? String == "Europe/Berlin")
    let overnight = try add(["--start", "2026-03-29T22:00:00", "--end", "2026-03-30T02:00:00", "--tz", "UTC"])
    let overnightID = try #require(overnight["id"] as? String)
    let overnightDays = try store.object(["event", "update", overnightID, "--all-day"])
    #expect(overnightDays["start"] as? String == "2026-03-29" && overnightDays["end"] as? String == "2026-03-31")
    let utc = try add(["--start", "2026-03-29T09:00:00+02:00", "--end", "2026-03-29T10:00:00+02:00"])
    #expect(utc["start"] as? String == "2026-03-29T07:00:00Z" && utc["timeZone"] as? String == "UTC")
    let converted = try add([
      "--start", "2026-03-29T07:00:00Z", "--end", "2026-03-29T08:00:00Z", "--tz", "America/New_York",
    ])
    #expect(converted["start"] as? String == "2026-03-29T03:00:00-04:00")
    #expect(converted["timeZone"] as? String == "America/New_York")

    let id = try #require(converted["id"] as? String)
    let moved = try store.object(["event", "update", id, "--tz", "Asia/Tokyo"])
    #expect(moved["start"] as? String == "2026-03-29T03:00:00+09:00", "--tz alone keeps the wall clock")
    let instant = try store.object(["event", "update", id, "--start", "2026-03-29T00:00:00Z"])
    #expect(instant["start"] as? String == "2026-03-29T09:00:00+09:00", "an instant lands in the event's zone")
    #expect(instant["end"] as? String == "2026-03-29T10:00:00+09:00")
    let whole = try store.object(["event", "update", id, "--start", "2026-04-01"])
    #expect(whole["allDay"] as? Bool == true && whole["end"] as? String == "2026-04-02")
    #expect(whole["timeZone"] is NSNull)
  }

  @Test(arguments: [
    (["--start", "2026-03-32"], "error: --start: \"2026-03-32\" is not a date or time — write 2026-03-29"),
    (["--start", "29.3.2026"], "error: --start: "),
    (["--start", "2026-03-29T09:00:00", "--end", "someday"], "error: --end: "),
    (["--start", "2026-03-29T09:00:00", "--end", "2026-03-29T10:00:00", "--tz", "Mars/Olympus"], "error: --tz: "),
    (
      ["--start", "2026-03-29T09:00:00", "--end", "2026-03-29T10:00:00", "--rrule", "FREQ=FORTNIGHTLY"],
      "error: --rrule: "
    ),
    (
      ["--start", "2026-03-29T09:00:00", "--end", "2026-03-29T10:00:00", "--rrule", "FREQ=DAILY;BYDAY=9XX"],
      "error: --rrule: "
    ),
    (
      ["--start", "2026-03-29T09:00:00", "--end", "2026-03-29T10:00:00Z", "--tz", "floating"],
      "error: --tz floating: give wall-clock times"
    ),
    (["--start", "2026-03-29T09:00:00", "--tz", "Mars/Olympus"], "error: --tz: "),
    (["--start", "2026-03-29", "--end", "2026-03-29T10:00:00"], "error: --start and --end: give both as dates"),
    (["--start", "9999-12-31T23:30:00"], "error: --start: the event would end after the year 9999"),
    (["--start", "2026-03-29T09:00:00", "--end", "2026-03-29T08:00:00"], "error: the event ends before it starts"),
    (["--start", "2026-03-29", "--alarm", "soon"], "error: --alarm: "),
    (
      ["--start", "2026-03-29T09:00:00", "--end", "2026-03-30T10:00:00", "--rrule", "FREQ=DAILY"],
      "error: the event lasts longer"
    ),
  ])
  func invalidInputIsRefusedWithStatus65AndWritesNothing(_ arguments: [String], _ message: String) throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let head = try store.head()
    let result = try store.run(["event", "add", "--calendar", calendar, "--title", "T"] + arguments)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try store.head() == head)
  }

  /// Without `--end`, a new event with a time of day lasts an hour, as calendar programs make one;
  /// an all-day one its day.
  @Test func aNewEventWithoutAnEndLastsAnHour() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let meeting = try store.object([
      "event", "add", "--calendar", calendar, "--title", "Meeting", "--start", "2026-03-29T09:30:00", "--tz",
      "Europe/Berlin",
    ])
    #expect(meeting["start"] as? String == "2026-03-29T09:30:00+02:00")
    #expect(meeting["end"] as? String == "2026-03-29T10:30:00+02:00", "\(meeting)")
    let day = try store.object(["event", "add", "--calendar", calendar, "--title", "Off", "--start", "2026-03-30"])
    #expect(day["end"] as? String == "2026-03-31" && day["allDay"] as? Bool == true, "\(day)")
  }

  /// Events and reminders are named by their title too, as a new user first types them; a title
  /// two hold is refused listing both, and changes nothing.
  @Test func itemsAreNamedByTheirTitleWhenOneHoldsIt() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let list = try store.calendar("Errands", ["--reminders"])
    let dentist = try #require(
      try store.object(["event", "add", "--calendar", calendar, "--title", "Dentist", "--start", "2026-06-02T10:00:00"]
      )[
        "id"] as? String)
    let floss = try #require(
      try store.object(["reminder", "add", "--calendar", list, "--title", "Floss"])["id"] as? String)
    #expect(try store.object(["event", "show", "dentist"])["id"] as? String == dentist)
    let moved = try store.object(["event", "update", "Dentist", "--title", "Dentist (moved)"])
    #expect(moved["id"] as? String == dentist)
    #expect(try store.object(["event", "show", "Dentist (moved)"])["id"] as? String == dentist)
    #expect(try store.object(["reminder", "complete", "Floss"])["completed"] as? Bool == true)
    #expect(try store.run(["event", "history", "Dentist (moved)"]).status == 0)
    let history = try store.run(["reminder", "history", "Floss", "--format", "json"])
    #expect(history.status == 0 && history.stdout.contains("Floss"), "\(history.stderr)")
    #expect(try store.object(["reminder", "show", "floss"])["id"] as? String == floss)

    let other = try #require(
      try store.object(["event", "add", "--calendar", calendar, "--title", "Lunch", "--start", "2026-06-03T12:00:00"])[
        "id"] as? String)
    _ = try store.object(["event", "add", "--calendar", calendar, "--title", "lunch", "--start", "2026-06-04T12:00:00"])
    let head = try store.head()
    let twice = try store.run(["event", "remove", "Lunch"])
    #expect(twice.status == 65 && twice.stderr.contains("2 events are titled Lunch"), "\(twice.stderr)")
    #expect(twice.stderr.contains(other))
    #expect(try store.head() == head)
    let none = try store.run(["event", "show", "Nobody's meeting"])
    #expect(none.status == 65 && none.stderr.contains("nor the title of an event"), "\(none.stderr)")
  }

  /// Events and reminders are named by the start of their id, as git names commits.
  @Test func itemsAreNamedByTheStartOfTheirID() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let list = try store.calendar("Errands", ["--reminders"])
    let event = try #require(
      try store.object(["event", "add", "--calendar", calendar, "--title", "Dentist", "--start", "2026-06-02T10:00:00"]
      )[
        "id"] as? String)
    let reminder = try #require(
      try store.object(["reminder", "add", "--calendar", list, "--title", "Floss"])["id"] as? String)
    let shown = try store.object(["event", "show", String(event.prefix(8).lowercased())])
    #expect(shown["id"] as? String == event)
    let moved = try store.object(["event", "update", String(event.prefix(6)), "--title", "Dentist (moved)"])
    #expect(moved["id"] as? String == event && moved["title"] as? String == "Dentist (moved)")
    #expect(try store.object(["reminder", "show", String(reminder.prefix(13))])["id"] as? String == reminder)
    let done = try store.object(["reminder", "complete", String(reminder.prefix(5))])
    #expect(done["completed"] as? Bool == true)
    let ana = try #require(try store.object(["contact", "add", "--given", "Ana"])["id"] as? String)
    #expect(try store.object(["contact", "show", String(ana.prefix(7))])["id"] as? String == ana)
    let renamed = try store.object(["contact", "update", String(ana.prefix(9)), "--family", "Souza"])
    #expect(renamed["id"] as? String == ana && renamed["familyName"] as? String == "Souza")
    let head = try store.head()
    let short = try store.run(["event", "show", "abc"])
    #expect(short.status == 65 && short.stderr.contains("not an identifier"), "\(short.stderr)")
    // A reminder's id names no event.
    let other = try store.run(["event", "remove", String(reminder.prefix(8))])
    #expect(other.status == 66 && other.stderr.contains("no event"), "\(other.stderr)")
    #expect(try store.head() == head)
  }

  @Test func updatesAndRemovalsOfWhatIsNotThereAreRefused() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let single = try #require(
      try store.object(["event", "add", "--calendar", calendar, "--title", "T", "--start", "2026-03-29"])["id"]
        as? String)
    let head = try store.head()
    let missing = "00000000-0000-4000-8000-0000000000AA"
    #expect(try store.run(["event", "update", missing, "--title", "X"]).status == 66)
    #expect(try store.run(["event", "remove", missing]).status == 66)
    #expect(try store.run(["event", "update", "not-an-id", "--title", "X"]).status == 65)
    let notSeries = try store.run(["event", "show", single, "--occurrence", "2026-03-29"])
    #expect(notSeries.status == 65 && notSeries.stderr.contains("does not repeat"))
    #expect(try store.run(["event", "update", single, "--calendar", missing]).status == 66)
    #expect(try store.run(["event", "update", single]).status == 64, "nothing to change")
    #expect(try store.head() == head)
  }
}
