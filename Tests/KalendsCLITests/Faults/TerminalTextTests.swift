import Foundation
import KalendsTestSupport
import Testing

/// What an app writes reaches the person's terminal as text, never as control: the review's
/// spoofed prompt ("Calendar would like to add events", the real request hidden by a carriage
/// return) and titles that overwrite rows of the person's `events` table.
@Suite("Text from apps cannot act on the person's terminal")
struct TerminalTextTests {
  /// A carriage return, a newline and a right-to-left override, which titles may hold (the store
  /// refuses other controls in them): each would rewrite or reorder what the person reads.
  static let hostile = "Review\rHoliday\nfake row\u{202E}txt.exe"

  /// Whether `text` holds any character that acts on a terminal.
  static func acts(_ text: String) -> Bool {
    text.unicodeScalars.contains { [0x0D, 0x1B, 0x202E].contains($0.value) }
  }

  /// An app's request for full access to calendars, which waits for the person.
  static let accessRequest = "/v1/authorization/calendars/request?level=full"

  @Test func aWriteOnlyAppsTitleIsShownEscapedInThePersonsTable() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    try store.object([
      "client", "register", "com.example.booker", "--name", "Booker", "--usage", "calendars-write-only=Bookings.",
    ])
    _ = try store.object(["access", "set", "com.example.booker", "--service", "calendars", "--status", "write-only"])
    let added = try store.run([
      "event", "add", "--as", "com.example.booker", "--calendar", calendar, "--title", Self.hostile, "--start",
      "2026-06-02T10:00:00Z", "--end", "2026-06-02T11:00:00Z",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    let table = try store.run(["events", "--from", "2026-06-01", "--to", "2026-06-08"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(!Self.acts(table.stdout), "\(table.stdout.debugDescription)")
    #expect(table.stdout.contains("Review\\rHoliday\\nfake row\\u{202E}txt.exe"))
    #expect(table.stdout.split(separator: "\n").count == 2, "a header and one row")
    // JSON is for programs: the title is kept as written.
    let json = try store.objects(["events", "--from", "2026-06-01", "--to", "2026-06-08", "--format", "json"])
    #expect(json.first?["title"] as? String == Self.hostile)
  }

  @Test func anAppsPathAndNameReachThePromptsEscaped() throws {
    let served = try ServedStore()
    // The app picks its own file name; this one tries to make the prompt read as another.
    let spoof = try served.app("agenda\rCalendar would like to add events\u{1B}[K")
    try served.store.object([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--usage",
      "calendars-full=Shows\ryour week.\u{202E}", "--executable", spoof,
    ])
    let (process, output, errors) = try served.start("POST", Self.accessRequest, by: spoof)
    let id = try #require(try served.waitForPrompts(1).first?["id"] as? Int)
    let table = try served.store.run(["prompts", "list", "--socket", served.socket])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(!Self.acts(table.stdout), "\(table.stdout.debugDescription)")
    #expect(table.stdout.contains("agenda\\rCalendar would like to add events\\u{1B}[K"))
    #expect(table.stdout.contains("Shows\\ryour week.\\u{202E}"))
    _ = try served.store.run(["prompts", "answer", "\(id)", "deny", "--socket", served.socket])
    _ = CLI.finish(process, output, errors)
  }

  @Test func theServersTerminalDeskShowsThePromptEscaped() throws {
    let served = try ServedStore(["--prompt", "tty", "--prompt-timeout", "5"], stdin: "deny\n")
    let spoof = try served.app("agenda\rCalendar would like to add events")
    try served.store.object([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--usage",
      "calendars-full=Week\u{202E}.\rAllow?", "--executable", spoof,
    ])
    let denied = try served.call("POST", Self.accessRequest, by: spoof)
    #expect((denied.body as? [String: Any])?["status"] as? String == "denied")
    served.stop()
    let asked = String(decoding: served.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(!Self.acts(asked), "\(asked.debugDescription)")
    #expect(asked.contains("“Agenda” (\(served.store.directory.path)/agenda\\rCalendar would like"))
    #expect(asked.contains("Week\\u{202E}.\\rAllow?"))
  }
}
