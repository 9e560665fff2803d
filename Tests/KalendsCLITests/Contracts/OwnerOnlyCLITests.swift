import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: what only the owner may do")
struct OwnerOnlyCLITests {
  static let app = "com.example.planner"

  func registered() throws -> CLIStore {
    let store = try CLIStore()
    try store.register(Self.app)
    try store.object(["access", "set", Self.app, "--service", "calendars", "--status", "full"])
    return store
  }

  /// The `ownerActionRefused` records of the app, by operation.
  func refusals(_ store: CLIStore) throws -> [String] {
    try store.objects(["audit", "history", "--client", Self.app])
      .filter { $0["kind"] as? String == "ownerActionRefused" }
      .compactMap { $0["operation"] as? String }
  }

  @Test(arguments: [
    ["log", "tail"], ["log", "show", "1"], ["log", "head"], ["log", "annotate", "hello"], ["status"], ["verify"],
    ["rebuild"], ["audit", "history"], ["audit", "state"], ["audit", "who-can", "--service", "calendars"],
    ["audit", "verify"], ["client", "list"], ["access", "status", "com.example.other"], ["backup", "BACKUP"],
    ["access", "set", "com.example.planner", "--service", "reminders", "--status", "full"],
    ["access", "restrict", "com.example.planner", "--service", "calendars"],
    ["access", "unrestrict", "com.example.planner", "--service", "calendars"],
    ["access", "reset", "com.example.planner"],
    ["client", "register", "com.example.other", "--name", "Other"], ["bench", "range"],
    ["HARNESS", "write", "--events", "1"],
    ["event", "history", "5C205EDF-C635-423E-9CFE-4BA4F8282B8C"], ["reminder", "history", "5C205EDF"],
    ["event", "restore", "5C205EDF-C635-423E-9CFE-4BA4F8282B8C", "--version", "2"],
    ["calendar", "restore", "5C205EDF-C635-423E-9CFE-4BA4F8282B8C"], ["contact", "history", "5c205edf"],
    ["group", "restore", "5C205EDF-C635-423E-9CFE-4BA4F8282B8C", "--version", "3"],
    ["fleet", "push", "--nats", "nats://127.0.0.1:1", "--org", "acme"],
    ["subscribe", "https://example.org/school.ics"], ["subscription", "list"], ["subscription", "refresh"],
    ["subscription", "remove", "5C205EDF-C635-423E-9CFE-4BA4F8282B8C"],
    ["account", "add", "caldav", "http://127.0.0.1:1", "--user", "ann", "--password-command", "echo pw"],
    ["account", "list"], ["account", "show", "Home"], ["account", "sync"], ["account", "remove", "Home"],
    ["account", "update", "Home", "--title", "Away"],
  ])
  func anOwnerOnlyCommandAsAnAppIsRefusedAndRecorded(_ command: [String]) throws {
    let store = try registered()
    let backup = store.directory.path + "/backup"
    let arguments = command.map { $0 == "BACKUP" ? backup : $0 }.filter { $0 != "HARNESS" }
    let before = try refusals(store).count
    let program = command.first == "HARNESS" ? CLI.harness : CLI.executable
    let result = try store.run(arguments + ["--as", Self.app], program: program)
    #expect(result.status == 68, "\(command): \(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("only the store's owner"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: backup), "no backup was made")
    #expect(try refusals(store).count == before + 1, "\(command): the refusal is recorded")
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func anAppSeesItsOwnStatusesAndNoOtherAppsOnes() throws {
    let store = try registered()
    let own = try store.objects(["access", "status", "--as", Self.app])
    #expect(own.count == 3 && own.allSatisfy { $0["client"] as? String == Self.app })
    try store.object(["client", "register", "com.example.other", "--name", "Other"])
    let other = try store.run(["access", "status", "com.example.other", "--as", Self.app])
    #expect(other.status == 68)
  }

  @Test func aRefusalOnAStoreOpenedReadOnlySaysItWasNotRecorded() throws {
    let store = try registered()
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: store.directory.storePath)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: store.directory.storePath)
    }
    guard getuid() != 0 else { return }  // root writes anyway
    let result = try store.run(["log", "tail", "--as", Self.app])
    #expect(result.status == 68 && result.stderr.contains("could not be recorded"), "\(result.stderr)")
  }
}

@Suite("Command line: client identifiers are bundle identifiers")
struct ClientIdentifierCLITests {
  @Test(arguments: [
    "\u{430}pp.full", "app.full\u{200B}", "app.full\u{202E}", "person", "policy:school", " ", "../../etc/passwd",
    "app full", "app_full",
  ])
  func anIdentifierThatIsNotABundleIdentifierIsRefused(_ id: String) throws {
    let store = try CLIStore()
    let before = try store.head()
    let result = try store.run(["client", "register", id, "--name", "App"])
    #expect(result.status == 65, "\(id.unicodeScalars.map(\.value)): \(result.stderr)")
    #expect(try store.head() == before)
  }

  @Test func anEmptyIdentifierIsInvalidInputNotAStorageFailure() throws {
    let store = try CLIStore()
    for command in [
      ["client", "register", "", "--name", "App"], ["event", "list", "--as", ""], ["access", "status", ""],
    ] {
      let result = try store.run(command)
      #expect(result.status == 65 || result.status == 64, "\(command): \(result.status) \(result.stderr)")
    }
  }

  @Test func namesHoldNoControlOrReorderingCharactersAndAnEmptyUsageIsNone() throws {
    let store = try CLIStore()
    for name in ["Plan\nner", "Plan\u{202E}ner", "Plan\u{7}ner", "", "  "] {
      let result = try store.run(["client", "register", "com.example.app", "--name", name])
      #expect(result.status == 65, "\(name.unicodeScalars.map(\.value)): \(result.stderr)")
    }
    try store.object(["client", "register", "com.example.app", "--name", "App", "--usage", "calendars-full="])
    let request = try store.run([
      "access", "request", "--service", "calendars", "--answer", "allow", "--as", "com.example.app",
    ])
    #expect(request.status == 68 && request.stderr.contains("usage description"), "\(request.stderr)")
    let status = try store.objects(["access", "status", "com.example.app"])
    #expect(status.first { $0["service"] as? String == "calendars" }?["status"] as? String == "denied")
  }
}

@Suite("Command line: small defects")
struct CLIDefectTests {
  @Test func globalOptionsWorkBeforeTheSubcommand() throws {
    let store = try CLIStore()
    let path = store.directory.storePath
    let status = try CLI.run(["--store", path, "status", "--format", "json"])
    #expect(status.status == 0, "\(status.stderr)")
    let head = try CLI.run(["--store=\(path)", "--format", "json", "log", "head"])
    #expect(head.status == 0 && head.stdout.contains("\"head\":1"), "\(head.stderr)")
    let annotated = try CLI.run(["--store", path, "log", "annotate", "--", "--store"])
    #expect(annotated.status == 0, "\(annotated.stderr)")
  }

  @Test func aStoredDecisionIsReturnedWithoutATerminal() throws {
    let store = try CLIStore()
    try store.object(["client", "register", "com.example.app", "--name", "App", "--usage", "calendars-full=x"])
    try store.object(["access", "request", "--service", "calendars", "--answer", "deny", "--as", "com.example.app"])
    let again = try store.object(["access", "request", "--service", "calendars", "--as", "com.example.app"])
    #expect(again["status"] as? String == "denied")
  }

  @Test func aBackupIntoAnExistingDirectoryIsAConflict() throws {
    let store = try CLIStore()
    let destination = store.directory.path + "/taken"
    try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: URL(fileURLWithPath: destination + "/file"))
    let result = try store.run(["backup", destination])
    #expect(result.status == 67, "\(result.stderr)")
  }

  @Test func harnessChangesFindsItselfWhenStartedFromPath() throws {
    let directory = TemporaryDirectory("path")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // `env` finds `kalends-harness` on PATH and starts it with argv[0] = "kalends-harness", as a shell does.
    process.arguments = [
      "PATH=\(CLI.harness.deletingLastPathComponent().path):/usr/bin:/bin", "kalends-harness", "changes",
      "--writes", "20", "--interval-ms", "1", "--throughput-writes", "20",
      "--rounds", "1", "--format", "json",
    ]
    let errors = Pipe()
    process.standardOutput = Pipe()
    process.standardError = errors
    process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
    try process.run()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(stderr)")
  }
}

@Suite("Command line: a write-only app reads nothing, and its attempts are recorded")
struct WriteOnlyReadCLITests {
  static let app = "com.example.booker"

  @Test(arguments: [
    ["event", "show", "ID"], ["event", "update", "ID", "--title", "Mine now"], ["event", "remove", "ID"],
  ])
  func aWriteOnlyAppCannotReachAnExistingEvent(_ command: [String]) throws {
    let store = try CLIStore()
    try store.register(Self.app)
    try store.object(["access", "set", Self.app, "--service", "calendars", "--status", "write-only"])
    let calendar = try store.calendar("Work")
    let event = try store.object([
      "event", "add", "--calendar", calendar, "--title", "Private", "--start", "2026-03-29T09:30:00",
      "--end", "2026-03-29T10:00:00",
    ])
    let id = try #require(event["id"] as? String)
    let refusalsBefore = try refusals(store)
    let result = try store.run(command.map { $0 == "ID" ? id : $0 } + ["--as", Self.app])
    #expect(result.status == 68, "\(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("may not read events"), "\(result.stderr)")
    #expect(!result.stdout.contains("Private"), "nothing of the event is printed")
    let shown = try store.object(["event", "show", id])
    #expect(shown["title"] as? String == "Private" && shown["version"] as? Int == event["version"] as? Int)
    #expect(try refusals(store) == refusalsBefore + 1, "the attempt is recorded")
  }

  /// The number of refused attempts the audit counts for the app.
  func refusals(_ store: CLIStore) throws -> Int {
    try store.objects(["audit", "history", "--client", Self.app])
      .filter { $0["kind"] as? String == "accessAttemptRefused" }
      .reduce(0) { $0 + (($1["count"] as? Int) ?? 0) }
  }
}
