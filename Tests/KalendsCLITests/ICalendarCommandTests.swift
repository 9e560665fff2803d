import Foundation
import Testing

@Suite("kalends import and export")
struct ICalendarCommandTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
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
