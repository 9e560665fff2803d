import Foundation
import KalendsTestSupport
import Testing

/// The example agenda app (Examples/Agenda, on KalendsClient) as a real peer of a real server:
/// identified by its binary, waiting for the person's answer, reprinting on changes, ended with
/// its session; refused as a copy changed by one byte; identified by its token over TCP.
@Suite("An app on KalendsClient through the store server")
struct AgendaAppTests {
  /// The built example app.
  static var agenda: URL { CLI.executable.deletingLastPathComponent().appendingPathComponent("kalends-agenda") }

  /// Adds an event to `calendar` in the week of 2026-03-02, Berlin time.
  static func add(_ title: String, at start: String, to calendar: String, in served: ServedStore) throws {
    try served.store.object([
      "event", "add", "--title", title, "--calendar", calendar, "--start", start, "--end",
      String(start.prefix(11)) + "23:00:00", "--tz", "Europe/Berlin",
    ])
  }

  @Test func theAgendaWaitsForThePersonThenReprintsOnChangesUntilItsSessionEnds() throws {
    let served = try ServedStore()
    try served.register("com.example.agenda", executable: Self.agenda.path)
    let calendar = try served.store.calendar("Work")
    try Self.add("Lunch", at: "2026-03-03T12:00:00", to: calendar, in: served)
    let (process, output, errors) = try CLI.start(
      ["--socket", served.socket, "--week", "2026-03-04", "--tz", "Europe/Berlin", "--watch"], program: Self.agenda)
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // It asks; the person answers on the socket; the app's call returns with the answer.
    let prompt = try #require(try served.waitForPrompts(1).first)
    #expect(prompt["client"] as? String == "com.example.agenda")
    #expect(prompt["executable"] as? String == Self.agenda.path)
    let id = try #require(prompt["id"] as? Int)
    let answered = try served.store.run(["prompts", "answer", String(id), "allow", "--socket", served.socket])
    #expect(answered.status == 0, "\(answered.stderr)")
    let first = ServerChangeTests.read(output.fileHandleForReading, until: "Lunch")
    #expect(first.contains("== week of 2026-03-02 (1 events)"), "\(first)")
    #expect(first.contains("2026-03-03T12:00:00+01:00  Lunch"), "\(first)")

    // A change by another process reaches it, and it prints the week again.
    try Self.add("Review", at: "2026-03-05T16:00:00", to: calendar, in: served)
    let second = ServerChangeTests.read(output.fileHandleForReading, until: "Review")
    #expect(second.contains("(2 events)"), "\(second)")

    // Its records say how the server knew it: its executable and digest.
    let request = try #require(try served.records("accessRequested").last)
    let caller = try #require(request["caller"] as? [String: Any])
    #expect(caller["executable"] as? String == Self.agenda.path)
    #expect(caller["executableSha256"] as? String == (try ServerTests.digest(Self.agenda.path)))

    // The person turns its access off in settings: the app hears its session end and exits 4.
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "denied"])
    let end = ServerChangeTests.read(output.fileHandleForReading, until: "session ended")
    #expect(end.contains("session ended"), "\(end)")
    process.waitUntilExit()
    #expect(
      process.terminationStatus == 4, "\(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
  }

  @Test func theAgendaHearsChangesAgainAfterTheServerIsKilledAndRestarted() throws {
    let served = try ServedStore()
    try served.register("com.example.agenda", executable: Self.agenda.path)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let calendar = try served.store.calendar("Work")
    let (process, output, _) = try CLI.start(
      ["--socket", served.socket, "--week", "2026-03-04", "--tz", "Europe/Berlin", "--watch"], program: Self.agenda)
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let first = ServerChangeTests.read(output.fileHandleForReading, until: "(0 events)")
    #expect(first.contains("== week of 2026-03-02 (0 events)"), "\(first)")
    // The server dies mid-stream and comes back; a change made meanwhile is heard after it, from
    // where the stream stopped (Last-Event-ID), on new connections the server identifies again.
    served.kill()
    try Self.add("Lunch", at: "2026-03-03T12:00:00", to: calendar, in: served)
    try served.restart()
    let again = ServerChangeTests.read(output.fileHandleForReading, until: "Lunch", seconds: 20)
    #expect(again.contains("(1 events)") && again.contains("Lunch"), "\(again)")
    #expect(process.isRunning)
  }

  /// Reminders through KalendsClient: the week's due reminders of the list the app keeps (made on
  /// its first run, once), a monthly one completed — its occurrence done, the series due next
  /// month — and nothing once reminders are denied.
  @Test func theAgendaKeepsItsListAndCompletesAMonthlyReminder() throws {
    let served = try ServedStore()
    try served.store.object([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--usage", "calendars-full=Shows your week.",
      "--usage", "reminders-full=Shows what is due.", "--executable", Self.agenda.path,
    ])
    for service in ["calendars", "reminders"] {
      try served.store.object(["access", "set", "com.example.agenda", "--service", service, "--status", "full"])
    }
    let week = ["--socket", served.socket, "--week", "2026-03-04", "--tz", "Europe/Berlin", "--reminders"]
    let first = try CLI.run(week + ["--list", "Home"], program: Self.agenda)
    #expect(first.status == 0 && first.stdout.contains("created the list Home"), "\(first.stdout) \(first.stderr)")
    let lists = try served.store.objects(["calendar", "list"]).filter { $0["title"] as? String == "Home" }
    #expect(lists.count == 1 && lists.first?["color"] as? String == "#FF9500")
    let home = try #require(lists.first?["id"] as? String)
    try served.store.object([
      "reminder", "add", "--calendar", home, "--title", "Pay rent", "--due", "2026-03-03", "--rrule", "FREQ=MONTHLY",
    ])
    try served.store.object(["reminder", "add", "--calendar", home, "--title", "Buy milk", "--due", "2026-03-05"])
    let other = try served.store.calendar("Errands", ["--reminders"])
    try served.store.object(["reminder", "add", "--calendar", other, "--title", "Post a letter", "--due", "2026-03-04"])

    let listed = try CLI.run(week + ["--list", "Home"], program: Self.agenda)
    #expect(!listed.stdout.contains("created"), "the list is made once")
    #expect(
      listed.stdout.contains("due 2026-03-03  ☐ Pay rent") && listed.stdout.contains("due 2026-03-05  ☐ Buy milk")
        && !listed.stdout.contains("Post a letter"), "\(listed.stdout)")
    let done = try CLI.run(week + ["--list", "Home", "--complete", "Pay rent"], program: Self.agenda)
    #expect(done.stdout.contains("completed Pay rent; next due 2026-04-03"), "\(done.stdout) \(done.stderr)")
    #expect(!done.stdout.contains("☐ Pay rent"))
    let rent = try served.store.objects(["reminder", "list", "--calendar", home]).filter {
      $0["title"] as? String == "Pay rent"
    }
    #expect(
      rent.map { "\($0["dueDate"] as? String ?? "")/\(($0["completed"] as? Bool) == true)" }.sorted() == [
        "2026-03-03/true", "2026-04-03/false",
      ])

    // Denied reminders: the agenda says so and reads none.
    try served.store.object(["access", "set", "com.example.agenda", "--service", "reminders", "--status", "denied"])
    let denied = try CLI.run(week, program: Self.agenda)
    #expect(denied.status == 3 && denied.stdout.contains("no access to reminders: denied"), "\(denied.stdout)")
    #expect(!denied.stdout.contains("Buy milk"))
  }

  /// After a rebuild the app is refused with a 401 that says the file changed and how to pin it;
  /// `client update --executable` pins it again, as the person's decision, and its access stays.
  @Test func aRebuiltAppIsToldWhyAndPinnedAgainKeepsItsAccess() throws {
    let served = try ServedStore()
    let app = served.store.directory.path + "/kalends-agenda"
    try FileManager.default.copyItem(atPath: Self.agenda.path, toPath: app)
    try served.register("com.example.agenda", executable: app)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let week = ["--socket", served.socket, "--week", "2026-03-04"]
    #expect(try CLI.run(week, program: URL(fileURLWithPath: app)).status == 0)
    // "Rebuilt": the same path, other bytes.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: app))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    let refused = try CLI.run(week, program: URL(fileURLWithPath: app))
    #expect(refused.status == 1)
    #expect(
      refused.stdout.contains("is registered as com.example.agenda, but the file changed since")
        && refused.stdout.contains("kalends client update com.example.agenda --executable \(app)"),
      "\(refused.stdout)")
    let updated = try served.store.object(["client", "update", "com.example.agenda", "--executable", app])
    #expect(updated["name"] as? String == "Agenda")
    let again = try CLI.run(week, program: URL(fileURLWithPath: app))
    #expect(again.status == 0 && again.stdout.contains("== week of 2026-03-02"), "\(again.stdout) \(again.stderr)")
    let registrations = try served.records("clientRegistered")
    #expect(registrations.count == 2)
    #expect((registrations.last?["actor"] as? [String: Any])?["type"] as? String == "person")
    let status = try served.store.objects(["access", "status", "com.example.agenda"])
    #expect(status.contains { $0["service"] as? String == "calendars" && $0["status"] as? String == "fullAccess" })
  }

  @Test func aCopyOfTheAgendaChangedByOneByteIsRefusedAndRecorded() throws {
    let served = try ServedStore()
    try served.register("com.example.agenda", executable: Self.agenda.path)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let copy = served.store.directory.path + "/kalends-agenda"
    var bytes = try Data(contentsOf: Self.agenda)
    bytes.append(0)
    try bytes.write(to: URL(fileURLWithPath: copy))
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: copy)
    // The original gets the week; the copy gets nothing.
    let original = try CLI.run(["--socket", served.socket, "--week", "2026-03-04"], program: Self.agenda)
    #expect(original.status == 0, "\(original.stderr)")
    #expect(original.stdout.contains("== week of 2026-03-02 (0 events)"))
    let refused = try CLI.run(["--socket", served.socket, "--week", "2026-03-04"], program: URL(fileURLWithPath: copy))
    #expect(refused.status == 1)
    #expect(refused.stdout.contains("401 caller not identified"), "\(refused.stdout)")
    #expect(!refused.stdout.contains("== week"))
    let unidentified = try #require(try served.records("callerUnidentified").last)
    let payload = try #require(unidentified["payload"] as? [String: Any])
    #expect(payload["executable"] as? String == copy)
    #expect(payload["executableSha256"] as? String == (try ServerTests.digest(copy)))
  }

  #if TLS
    @Test func theAgendaOverTLSPresentsItsToken() throws {
      let directory = TemporaryDirectory("agenda-tls")
      let certificate = directory.path + "/cert.pem"
      let key = directory.path + "/key.pem"
      _ = try CLI.python(ServerTokenTests.selfSigned, [certificate, key])
      let served = try ServedStore(["--listen", "127.0.0.1:0", "--tls-certificate", certificate, "--tls-key", key])
      let address = try #require(served.tcpAddress)
      try served.store.register("com.example.sync")
      try served.store.object(["access", "set", "com.example.sync", "--service", "calendars", "--status", "full"])
      let tokenFile = directory.path + "/token"
      let token = try served.store.object([
        "client", "token", "create", "com.example.sync", "--secret-file", tokenFile,
      ])
      let calendar = try served.store.calendar("Home")
      try Self.add("Dentist", at: "2026-03-04T09:00:00", to: calendar, in: served)
      let shown = try CLI.run(
        [
          "--tcp", "localhost:" + (address.split(separator: ":").last.map(String.init) ?? ""), "--token-file",
          tokenFile,
          "--ca", certificate, "--week", "2026-03-04", "--tz", "Europe/Berlin",
        ], program: Self.agenda)
      #expect(shown.status == 0, "\(shown.stdout) \(shown.stderr)")
      #expect(shown.stdout.contains("2026-03-04T09:00:00+01:00  Dentist"), "\(shown.stdout)")
      let request = try #require(try served.records("accessRequested").last)
      #expect((request["caller"] as? [String: Any])?["tokenId"] as? String == token["id"] as? String)
    }
  #endif
}
