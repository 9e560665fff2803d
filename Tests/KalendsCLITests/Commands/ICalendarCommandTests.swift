import Foundation
import KalendsTestSupport
import Testing

@Suite("kalends import and export")
struct ICalendarCommandTests {
  static let fixtures = Repository.root.appendingPathComponent("Tests")
    .appendingPathComponent("Fixtures/iCalendar")

  static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name + ".ics").path }

  /// Titles and starts of what `kalends events` lists in 2026, to compare two stores.
  private func agenda(_ store: CLIStore) throws -> [String] {
    try store.objects(["events", "--from", "2026-01-01", "--to", "2027-01-01", "--tz", "Europe/Berlin"]).map {
      "\($0["instanceStart"] ?? "") \($0["title"] ?? "") \($0["location"] ?? "")"
    }
  }

  @Test func exportedFilesImportFromStandardInputToTheSameAgenda() throws {
    let first = try CLIStore()
    let imported = try first.object(["import", Self.fixture("google")])
    #expect(imported["created"] as? Int == 5)
    let calendars = try first.objects(["calendar", "list"])
    #expect(calendars.map { $0["title"] as? String } == ["Team calendar"])

    let exported = try first.run(["export"])
    #expect(exported.status == 0, "\(exported.stderr)")
    #expect(exported.stdout.hasPrefix("BEGIN:VCALENDAR\r\n") && exported.stdout.hasSuffix("END:VCALENDAR\r\n"))

    let second = try CLIStore()
    let piped = try CLI.run(
      ["import", "-", "--new-calendar", "Copy", "--format", "json", "--store", second.directory.storePath],
      stdin: exported.stdout)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(try agenda(second) == (try agenda(first)))
    #expect(try agenda(first).count > 100)
  }

  @Test func importingAgainIntoTheSameCalendarChangesNothing() throws {
    let store = try CLIStore()
    let id = try #require(
      try store.object(["import", Self.fixture("outlook"), "--new-calendar", "Work"])["calendarId"] as? String)
    let head = try store.head()
    let again = try store.object(["import", Self.fixture("outlook"), "--calendar", id])
    #expect(again["unchanged"] as? Int == 5 && again["created"] as? Int == 0)
    #expect(try store.head() == head)
  }

  @Test func importingAFileAgainWithoutACalendarFindsTheCalendarItMadeAndWritesNothing() throws {
    let store = try CLIStore()
    // One file with X-WR-RELCALID, one without (found by its path).
    let copy = store.directory.path + "/team.ics"
    try FileManager.default.copyItem(atPath: Self.fixture("google"), toPath: copy)
    for file in [Self.fixture("overlapping"), copy] {
      let first = try store.object(["import", file])
      #expect(first["createdCalendar"] as? Bool == true && (first["created"] as? Int ?? 0) > 0)
      let head = try store.head()
      let again = try store.object(["import", file])
      #expect(again["calendarId"] as? String == first["calendarId"] as? String, "\(file)")
      #expect(again["createdCalendar"] as? Bool == false && again["created"] as? Int == 0)
      #expect(again["unchanged"] as? Int == first["created"] as? Int)
      #expect(try store.head() == head, "\(file): the second import wrote nothing")
    }
    #expect(try store.objects(["calendar", "list"]).count == 2)
    // The same X-WR-RELCALID from another path is the same calendar.
    let moved = store.directory.path + "/moved.ics"
    try FileManager.default.copyItem(atPath: Self.fixture("overlapping"), toPath: moved)
    #expect(try store.object(["import", moved])["createdCalendar"] as? Bool == false)
    // --new-calendar makes a new one, as it says.
    #expect(try store.object(["import", copy, "--new-calendar", "Another"])["createdCalendar"] as? Bool == true)
    #expect(try store.objects(["calendar", "list"]).count == 3)
  }

  @Test func componentsThatAreNotKeptAreListedInTheSummary() throws {
    let store = try CLIStore()
    let result = try store.run(["import", Self.fixture("overlapping"), "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect(summary["skipped"] as? [String: Int] == ["VFREEBUSY": 1, "VJOURNAL": 2])
    #expect(result.stderr.contains("note: skipped 2 VJOURNAL components"), "\(result.stderr)")
    #expect(result.stderr.contains("note: skipped 1 VFREEBUSY component "), "\(result.stderr)")
    let plain = try store.object(["import", Self.fixture("google")])
    #expect(plain["skipped"] as? [String: Int] == [:])
  }

  @Test func aSeriesLongerThanItsIntervalImportsWithOverlappingOccurrences() throws {
    let store = try CLIStore()
    let imported = try store.object(["import", Self.fixture("overlapping")])
    #expect(imported["created"] as? Int == 3)
    // The two-day event repeats daily from 2026-03-02: on 2026-03-05 three occurrences are running.
    let day = try store.objects([
      "events", "--from", "2026-03-05T12:00:00", "--to", "2026-03-05T12:00:01", "--tz", "Europe/Berlin",
    ])
    #expect(day.filter { ($0["title"] as? String)?.hasPrefix("On call") == true }.count == 2, "\(day)")
    // Saving such a series through the command line is refused, as EventKit refuses it.
    let calendar = try #require(imported["calendarId"] as? String)
    let refused = try store.run([
      "event", "add", "--calendar", calendar, "--title", "Too long", "--start", "2026-03-02T09:00:00",
      "--end", "2026-03-04T09:00:00", "--rrule", "FREQ=DAILY",
    ])
    #expect(refused.status == 65 && refused.stderr.contains("longer than the interval"), "\(refused.stderr)")
  }

  /// The review's series: a series with hundreds of thousands of EXDATEs made every query
  /// over it cost seconds. More than 10,000 exception dates in one series are refused at import,
  /// with a clear error, and nothing of the file is written; 10,000 are accepted.
  @Test func aSeriesWithMoreExceptionDatesThanTheLimitImportsNothing() throws {
    let store = try CLIStore()
    let directory = TemporaryDirectory("exdates")
    func calendar(exceptions: Int) throws -> String {
      var lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//kalends//test//EN", "BEGIN:VEVENT",
        "UID:exdates-\(exceptions)@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260101T000000Z",
        "DTEND:20260101T003000Z", "SUMMARY:Daily", "RRULE:FREQ=DAILY;COUNT=20000",
      ]
      let start = 1_767_225_600  // 2026-01-01T00:00:00Z
      var stamps: [String] = []
      for day in 0..<exceptions {
        let time = Date(timeIntervalSince1970: TimeInterval(start + 86_400 * day))
        var components = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: time)
        components.nanosecond = 0
        stamps.append(
          String(
            format: "%04d%02d%02dT%02d0000Z", components.year!, components.month!, components.day!, components.hour!))
      }
      for chunk in stride(from: 0, to: stamps.count, by: 50) {
        lines.append("EXDATE:" + stamps[chunk..<min(chunk + 50, stamps.count)].joined(separator: ","))
      }
      lines += ["END:VEVENT", "END:VCALENDAR"]
      let path = directory.path + "/exdates-\(exceptions).ics"
      try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let head = try store.head()
    let refused = try store.run(["import", try calendar(exceptions: 10_001), "--new-calendar", "Many"])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("10001 exception dates, more than 10000"), "\(refused.stderr)")
    #expect(try store.head() == head, "nothing is written")
    let accepted = try store.object(["import", try calendar(exceptions: 10_000), "--new-calendar", "Enough"])
    #expect(accepted["created"] as? Int == 1)
  }

  @Test func aBadFileImportsNothingAndNamesTheLine() throws {
    let store = try CLIStore()
    let directory = TemporaryDirectory("bad-ics")
    let path = directory.path + "/bad.ics"
    let original = try String(contentsOfFile: Self.fixture("apple"), encoding: .utf8)
    let text = original.replacingOccurrences(of: "RRULE:FREQ=MONTHLY;BYDAY=2TU", with: "RRULE:FREQ=MONTHLY;BYDAY=2XX")
    let line = try #require(original.components(separatedBy: "\r\n").firstIndex { $0.contains("BYDAY=2TU") }) + 1
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let head = try store.head()
    let result = try store.run(["import", path])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("error: line \(line): invalid recurrence rule"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try store.head() == head)
    #expect(try store.run(["import", directory.path + "/missing.ics"]).status == 66)
    #expect(try store.run(["import", path, "--calendar", "x", "--new-calendar", "y"]).status == 64)
  }

  @Test func exportWritesAWindowToAFile() throws {
    let store = try CLIStore()
    try store.object(["import", Self.fixture("thunderbird")])
    let directory = TemporaryDirectory("export")
    let path = directory.path + "/april.ics"
    let result = try store.run([
      "export", "--from", "2026-04-20", "--to", "2026-04-25", "--tz", "Europe/Vienna", "-o", path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("SUMMARY:Trip to Vienna\r\n"))
    #expect(!text.contains("SUMMARY:Choir rehearsal"))
    #expect(text.contains("TZID:Europe/Vienna\r\n"))
    #expect(try store.run(["export", "--from", "2026-04-20"]).status == 64)
  }
}
