import Foundation
import KalendsTestSupport
import Testing

/// `kalends search` as a person types it: words found at the start of words, accents and case
/// ignored, events and reminders, a window of occurrences, and text with no word refused.
@Suite("Command line: search")
struct SearchCommandTests {
  @Test func wordsFindEventsAndRemindersAndAWindowItsOccurrences() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let errands = try store.calendar("Errands", ["--reminders"])
    let dentist = try #require(
      try store.object([
        "event", "add", "--calendar", work, "--title", "Dentist", "--location", "Zürich, Bahnhofstrasse 1", "--start",
        "2026-06-01T09:00:00", "--tz", "Europe/Zurich", "--rrule", "FREQ=WEEKLY;COUNT=4",
      ])["id"] as? String)
    try store.object([
      "event", "add", "--calendar", work, "--title", "Review", "--notes", "bring the dental plan", "--start",
      "2026-06-03T09:00:00",
    ])
    try store.object(["reminder", "add", "--calendar", errands, "--title", "Call the dentist"])
    // The second occurrence is renamed: it no longer says "dentist" itself.
    try store.object([
      "event", "update", dentist, "--occurrence", "2026-06-08T09:00:00", "--span", "this", "--title", "Hygienist",
    ])

    func titles(_ arguments: [String]) throws -> [String] {
      try store.objects(["search"] + arguments).compactMap { "\($0["kind"] ?? "")/\($0["title"] ?? "")" }
    }
    #expect(try titles(["dent"]) == ["event/Dentist", "event/Review", "reminder/Call the dentist"])
    #expect(try titles(["ZURICH dent"]) == ["event/Dentist"], "every word, accents and case ignored")
    #expect(try titles(["ZURICH", "dent"]) == ["event/Dentist"], "words given unquoted are the same words")
    // Where each was found: in which fields, and in which calendar.
    let matched = try store.objects(["search", "zurich", "dent"]).first?["matched"] as? [String]
    #expect(matched == ["title", "location"], "\(matched ?? [])")
    let notes = try store.objects(["search", "dental"]).first?["matched"] as? [String]
    #expect(notes == ["notes"], "\(notes ?? [])")
    #expect(try titles(["hygien"]) == ["event/Dentist"], "a changed occurrence is the series' too")
    #expect(try titles(["dentist", "--only", "reminders"]) == ["reminder/Call the dentist"])
    #expect(try titles(["tist"]).isEmpty, "words are found by their start")

    let window = try store.objects(["search", "dentist", "--from", "2026-06-01", "--to", "2026-07-01", "--tz", "UTC"])
    let starts = window.compactMap { $0["instanceStart"] as? String }
    #expect(starts == ["2026-06-01T07:00:00Z", "2026-06-15T07:00:00Z", "2026-06-22T07:00:00Z"], "\(window)")

    let table = try store.run(["search", "dentist"])
    #expect(table.status == 0 && table.stdout.contains("☐ Call the dentist"), "\(table.stdout)")
    #expect(table.stdout.contains("CALENDAR") && table.stdout.contains("Errands"), "\(table.stdout)")
    // Times in the person's zone: 09:00 in Zürich is 03:00 in New York.
    let local = try store.run(["search", "dentist", "--only", "events"], environment: ["TZ": "America/New_York"])
    #expect(local.status == 0 && local.stdout.contains("2026-06-01T03:00:00-04:00  Dentist"), "\(local.stdout)")
    let nothing = try store.run(["search", "orthodontist"])
    #expect(nothing.status == 0 && nothing.stdout == "nothing says \"orthodontist\"\n")

    let head = try store.head()
    let empty = try store.run(["search", "%%"])
    #expect(empty.status == 65 && empty.stderr.contains("no word"), "\(empty.stderr)")
    let half = try store.run(["search", "dent", "--from", "2026-06-01"])
    #expect(half.status == 64, "\(half.stderr)")
    #expect(try store.head() == head)
  }
}
