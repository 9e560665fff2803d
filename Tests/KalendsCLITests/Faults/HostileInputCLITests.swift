import Foundation
import KalendsTestSupport
import Testing

/// Hostile arguments and input files through the CLI: one `error:` line with the status of its
/// class, and the log head where it was.
@Suite("Command line: hostile input")
struct HostileInputCLITests {
  /// One hostile call: `{calendar}` in an argument stands for an existing calendar's id.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    var stdin: String? = nil
    let status: Int32
    let says: String

    var testDescription: String { name }
  }

  static let event = ["event", "add", "--calendar", "{calendar}", "--title", "x"]
  static let hour = ["--start", "2026-03-02T09:00:00Z", "--end", "2026-03-02T10:00:00Z"]
  static let missing = "00000000-0000-4000-8000-00000000DEAD"

  static let cases: [Case] = [
    Case(
      name: "a year past 9999", arguments: event + ["--start", "99999-01-01T00:00:00Z"], status: 65,
      says: "is not a date or time"),
    Case(name: "year zero", arguments: event + ["--start", "0000-01-01"], status: 65, says: "is not a date or time"),
    Case(
      name: "a daily series from year 1",
      arguments: event + ["--start", "0001-01-01T09:00:00Z", "--end", "0001-01-01T10:00:00Z", "--rrule", "FREQ=DAILY"],
      status: 65, says: "more than 100000 occurrences"),
    Case(
      name: "a due date past 9999",
      arguments: ["reminder", "add", "--calendar", "{calendar}", "--title", "x", "--due", "10000-01-01"],
      status: 65, says: "is not a date or time"),
    Case(
      name: "FREQ=SECONDLY", arguments: event + hour + ["--rrule", "FREQ=SECONDLY;COUNT=100000000"], status: 65,
      says: "FREQ=SECONDLY is not supported"),
    Case(
      name: "COUNT of a hundred million", arguments: event + hour + ["--rrule", "FREQ=DAILY;COUNT=100000000"],
      status: 65, says: "COUNT=100000000 is outside"),
    Case(
      name: "BYSETPOS out of range", arguments: event + hour + ["--rrule", "FREQ=YEARLY;BYMONTH=1;BYSETPOS=400"],
      status: 65, says: "BYSETPOS=400 is outside"),
    Case(
      name: "a huge INTERVAL", arguments: event + hour + ["--rrule", "FREQ=DAILY;INTERVAL=1000000000"], status: 65,
      says: "INTERVAL=1000000000 is outside"),
    Case(
      name: "a 100 KB rule", arguments: event + hour + ["--rrule", String(repeating: "FREQ=DAILY;", count: 9_000)],
      status: 65, says: "--rrule"),
    Case(
      name: "a note of 17 MiB on standard input", arguments: ["log", "annotate"],
      stdin: String(repeating: "x", count: 17 << 20), status: 65, says: "more than the 16777216 allowed"),
    Case(
      name: "a NUL in a note", arguments: ["log", "annotate"], stdin: "fine\na\u{0}b\n", status: 65,
      says: "note 2 holds a NUL character"),
    Case(name: "a missing event", arguments: ["event", "show", missing], status: 66, says: "no item"),
    Case(
      name: "updating a missing event", arguments: ["event", "update", missing, "--title", "y"], status: 66,
      says: "no item"),
    Case(name: "removing a missing event", arguments: ["event", "remove", missing], status: 66, says: "no item"),
    Case(
      name: "a missing calendar", arguments: ["event", "add", "--calendar", missing, "--title", "x"] + hour, status: 66,
      says: "no calendar"),
    Case(
      name: "a malformed identifier", arguments: ["event", "show", "not-an-id"], status: 65,
      says: "is not an identifier"),
    Case(
      name: "an unregistered client",
      arguments: ["access", "set", "com.nobody", "--service", "calendars", "--status", "denied"],
      status: 66, says: "no client com.nobody"),
    Case(name: "a missing reminder", arguments: ["reminder", "complete", missing], status: 66, says: "no item"),
    Case(
      name: "a position past the head", arguments: ["log", "show", "99999"], status: 66,
      says: "no record at position 99999"),
  ]

  @Test(arguments: cases)
  func isRefusedClearlyAndWritesNothing(_ hostile: Case) throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    _ = try store.calendar("Errands", ["--reminders"])
    let head = try store.head()
    let arguments = hostile.arguments.map { $0 == "{calendar}" ? calendar : $0 }
    let result = try CLI.run(arguments + ["--store", store.directory.storePath], stdin: hostile.stdin)
    #expect(result.status == hostile.status, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("error: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.contains(hostile.says), "\(result.stderr)")
    #expect(try store.head() == head)
  }

  /// Files with bytes no text field may hold.
  @Test(arguments: [
    ("a title that is not UTF-8", [0xFF, 0xFE] as [UInt8], "not UTF-8"),
    ("a NUL in a title", [0x00], "control character U+0000"),
    ("an escape sequence in a title", [0x1B, 0x5B, 0x33, 0x31, 0x6D], "control character U+001B"),
  ])
  func anIcalendarFileWithBytesNoTextMayHoldImportsNothing(name: String, bytes: [UInt8], says: String) throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let head = try store.head()
    var file = Array(
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T090000Z\r\nDTEND:20260101T100000Z\r\nSUMMARY:a"
        .utf8)
    file += bytes + Array("b\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
    let path = store.directory.path + "/hostile.ics"
    try Data(file).write(to: URL(fileURLWithPath: path))
    let result = try store.run(["import", path, "--calendar", calendar])
    #expect(result.status == 65, "\(name): \(result.stderr)")
    #expect(result.stderr.contains(says) && result.stderr.contains("nothing was imported"), "\(result.stderr)")
    #expect(try store.head() == head)
  }

  /// Arguments and standard input that are not UTF-8 are refused, not repaired into U+FFFD.
  @Test func textThatIsNotUTF8IsRefusedNotRepaired() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let head = try store.head()
    // Process takes Strings, so python3 puts the raw byte 0xFF where the argument says <FF>.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "python3", "-c",
        "import os, sys; os.execv(sys.argv[1], [a.encode().replace(b'<FF>', b'\\xff') for a in sys.argv[1:]])",
        CLI.executable.path,
      ] + Self.event.map { $0 == "{calendar}" ? calendar : $0 == "x" ? "bad<FF>title" : $0 } + Self.hour
      + ["--store", store.directory.storePath]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 65)
    #expect(message.hasPrefix("error: argument 6 is not valid UTF-8"), "\(message)")

    let notes = try CLI.run(
      ["log", "annotate", "--store", store.directory.storePath], stdinBytes: [0x61, 0x0A, 0xC3, 0x28, 0x0A])
    #expect(notes.status == 65)
    #expect(notes.stderr.contains("line 2 of standard input is not valid UTF-8"), "\(notes.stderr)")
    #expect(try store.head() == head)
  }
}
