import Foundation
import KalendsTestSupport
import Testing

/// When the disk or the file-size limit runs out, or the file system is read-only, a write fails
/// with a clear error and leaves nothing partial; the store works again once the cause is gone.
@Suite("Command line: resource faults", .serialized)
struct ResourceFaultTests {
  /// An iCalendar file of `count` events with 2 KB of notes each: one import, one transaction.
  static func calendarFile(events count: Int, in directory: TemporaryDirectory) throws -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kalends//faults//EN"]
    let notes = String(repeating: "n", count: 2_000)
    for index in 0..<count {
      lines += [
        "BEGIN:VEVENT", "UID:fault-\(index)", "DTSTAMP:20260101T000000Z", "DTSTART:20260301T090000Z",
        "DTEND:20260301T100000Z", "SUMMARY:event \(index)", "DESCRIPTION:\(notes)", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    let path = directory.path + "/big-\(count).ics"
    try lines.joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Runs `kalends` under a file-size limit of `bytes`, with SIGXFSZ ignored so that a write past
  /// the limit fails with EFBIG instead of killing the process.
  static func runLimited(fileSize bytes: Int, _ arguments: [String]) throws -> CLI.Result {
    let limiter = """
      import os, resource, signal, sys
      signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
      resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))
      os.execv(sys.argv[2], sys.argv[2:])
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", limiter, String(bytes), CLI.executable.path] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    return CLI.finish(process, output, errors)
  }

  static func fileSize(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
  }

  @Test func aWritePastTheFileSizeLimitFailsClearlyWritesNothingAndSucceedsWithoutTheLimit() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let file = try Self.calendarFile(events: 400, in: store.directory)
    let before = try store.head()
    let limit = try Self.fileSize(store.directory.storePath + "/data.mdb") + 64 << 10
    let failed = try Self.runLimited(
      fileSize: limit, ["import", file, "--calendar", calendar, "--store", store.directory.storePath])
    #expect(failed.status == 70, "\(failed.stderr)")
    #expect(failed.stderr.hasPrefix("error: ") && failed.stderr.contains("ulimit -f"), "\(failed.stderr)")
    #expect(try store.head() == before)
    #expect(try store.run(["verify"]).status == 0)
    let imported = try store.object(["import", file, "--calendar", calendar])
    #expect(imported["created"] as? Int == 400)
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test(.enabled(if: TmpfsMount.isAvailable, "needs the right to mount a tmpfs"))
  func aFullDiskFailsTheWriteClearlyAndTheStoreWorksOnceSpaceIsFreed() throws {
    let disk = try TmpfsMount(bytes: 4 << 20)
    let storePath = disk.path + "/store"
    let run = { (arguments: [String]) in try CLI.run(arguments + ["--store", storePath]) }
    #expect(try run(["init"]).status == 0)
    let calendar =
      try #require(
        try json(try run(["calendar", "create", "Work", "--format", "json"]).stdout) as? [String: Any])["id"] as! String
    let filler = disk.path + "/filler"
    let free = 4 << 20 - (try Self.fileSize(storePath + "/data.mdb")) - (try Self.fileSize(storePath + "/lock.mdb"))
    _ = FileManager.default.createFile(atPath: filler, contents: Data(count: free - (256 << 10)))
    let scratch = TemporaryDirectory("faults")
    let file = try Self.calendarFile(events: 400, in: scratch)
    let before = try run(["log", "head"]).stdout

    let failed = try run(["import", file, "--calendar", calendar])
    #expect(failed.status == 70, "\(failed.stderr)")
    #expect(failed.stderr.contains("no space left on device — free disk space"), "\(failed.stderr)")
    #expect(try run(["log", "head"]).stdout == before)
    #expect(try run(["verify"]).status == 0)

    try FileManager.default.removeItem(atPath: filler)
    let imported = try run(["import", file, "--calendar", calendar, "--format", "json"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try run(["verify"]).status == 0)
  }

  @Test(.enabled(if: TmpfsMount.isAvailable, "needs the right to mount a tmpfs"))
  func aStoreOnAReadOnlyFileSystemAnswersQueriesAndAuditsAndRefusesWrites() throws {
    let disk = try TmpfsMount(bytes: 16 << 20)
    let storePath = disk.path + "/store"
    let run = { (arguments: [String]) in try CLI.run(arguments + ["--store", storePath]) }
    #expect(try run(["init"]).status == 0)
    let created = try run(["calendar", "create", "Work", "--format", "json"])
    let calendar = try #require(try json(created.stdout) as? [String: Any])["id"] as! String
    let event = [
      "event", "add", "--calendar", calendar, "--title", "Standup", "--start", "2026-03-02T09:00:00Z",
      "--end", "2026-03-02T09:15:00Z",
    ]
    #expect(try run(event).status == 0)
    let head = try run(["log", "head"]).stdout
    try disk.remount(readOnly: true)
    defer { try? disk.remount(readOnly: false) }

    #expect(try run(["verify"]).status == 0)
    #expect(try run(["audit", "verify"]).status == 0)
    let week = try run(["events", "--from", "2026-03-01", "--to", "2026-03-08", "--format", "json"])
    #expect(week.status == 0, "\(week.stderr)")
    #expect((try json(week.stdout) as? [[String: Any]])?.count == 1)
    #expect(try run(["log", "head"]).stdout == head)

    let refused = try run(event)
    #expect(refused.status == 70, "\(refused.stderr)")
    #expect(refused.stderr.hasPrefix("error: read-only file system"), "\(refused.stderr)")
    let backup = try run(["backup", disk.path + "/copy"])
    #expect(backup.status == 70 && backup.stderr.hasPrefix("error: "), "\(backup.stderr)")
  }
}
