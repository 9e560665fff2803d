import Foundation
import KalendsTestSupport
import Testing

/// Two-way sync of an account against a real CalDAV server (Radicale 3 from PyPI): what the person
/// and apps change in an account's calendars goes out with conditional `PUT` and `DELETE`, a change
/// made on both sides keeps the server's version and records the conflict, and what waits survives
/// a server that does not answer. The server's collection is read back with curl and compared by
/// PyPI's `icalendar` with `kalends export`.
@Suite("Command line: an account's calendars sync both ways")
struct AccountTwoWayTests {
  typealias Setup = AccountSyncTests.Setup

  /// The events of the server's Work collection (Radicale answers a GET of a collection with all of
  /// it) and of the store's Work calendar, as `icalendar` reads them.
  static func same(_ setup: Setup, _ workID: String) throws -> (server: String, store: String) {
    let server = try setup.server.get("/ann/work/")
    let exported = try setup.store.run(["export", "--calendar", workID]).stdout
    return (try AccountSyncTests.oracle([server]), try AccountSyncTests.oracle([exported]))
  }

  static func work(_ store: CLIStore) throws -> String {
    try #require(try store.objects(["calendar", "list"]).first { $0["title"] as? String == "Work" }?["id"] as? String)
  }

  static func event(_ store: CLIStore, _ title: String, in workID: String) throws -> [String: Any] {
    try #require(
      try store.objects(["event", "list", "--calendar", workID]).first {
        $0["title"] as? String == title
      }, "no event \(title)")
  }

  /// The records of `kind`, the last thousand.
  static func records(_ store: CLIStore, _ kind: String) throws -> [[String: Any]] {
    try store.objects(["log", "tail", "--kind", kind, "-n", "1000", "--format", "json"])
  }

  static func outgoing(_ store: CLIStore) throws -> Int? {
    (try store.object(["account", "show", "Home"])["sync"] as? [String: Any])?["outgoing"] as? Int
  }

  @Test func thePersonsChangesGoOutAndAChangeOnBothSidesKeepsTheServersAndRecordsIt() throws {
    let setup = try Setup()
    let (store, server) = (setup.store, setup.server)
    #expect(
      try server.put(
        "/ann/work/lunch.ics", AccountSyncTests.file(AccountSyncTests.event("lunch@home", "Lunch", day: 3)))
        == "201")
    #expect(try server.put("/ann/work/standup.ics", AccountSyncTests.series) == "201")
    _ = try setup.add()
    let workID = try Self.work(store)
    let work = try #require(try store.objects(["calendar", "list"]).first { $0["id"] as? String == workID })
    #expect(work["allowsContentModifications"] as? Bool == true, "Radicale lets ann write: \(work)")

    // Made, changed here: both wait, then go out; the server then holds what the store does.
    #expect(
      try store.run(["event", "add", "--title", "Dentist", "--calendar", workID, "--start", "2026-12-15T09:00"]).status
        == 0)
    let lunch = try #require(try Self.event(store, "Lunch", in: workID)["id"] as? String)
    #expect(try store.run(["event", "update", lunch, "--title", "Lunch with Bo"]).status == 0)
    #expect(try Self.outgoing(store) == 2)
    let sent = try setup.sync()
    #expect(sent["sent"] as? Int == 2 && (sent["conflicts"] as? [Any])?.isEmpty == true, "\(sent)")
    #expect(try Self.outgoing(store) == 0)
    var (remote, local) = try Self.same(setup, workID)
    #expect(remote == local && remote.contains("Dentist") && remote.contains("Lunch with Bo"), "\(remote)\n\(local)")

    // A change the server took is not brought back, nor sent again: the next sync writes no item.
    let saves = try Self.records(store, "eventSaved").count
    let idle = try setup.sync()
    #expect(idle["created"] as? Int == 0 && idle["updated"] as? Int == 0 && idle["sent"] as? Int == 0, "\(idle)")
    #expect(try Self.records(store, "eventSaved").count == saves)

    // Removed here: removed there. Removed there: removed here.
    let dentist = try #require(try Self.event(store, "Dentist", in: workID)["id"] as? String)
    #expect(try store.run(["event", "remove", dentist]).status == 0)
    #expect(try server.curl("DELETE", "/ann/work/lunch.ics") == "200")
    let removals = try setup.sync()
    #expect(removals["sent"] as? Int == 1 && removals["removed"] as? Int == 1, "\(removals)")
    (remote, local) = try Self.same(setup, workID)
    #expect(remote == local && !remote.contains("Dentist") && !local.contains("Lunch"), "\(remote)\n\(local)")

    // Both sides change the standup: the server's is kept, the local one is in history, and the
    // conflict is a fact naming both.
    let standup = try #require(try Self.event(store, "Standup", in: workID)["id"] as? String)
    #expect(try store.run(["event", "update", standup, "--title", "Standup (mine)"]).status == 0)
    let theirs = AccountSyncTests.series.replacingOccurrences(
      of: "SUMMARY:Standup\r\n", with: "SUMMARY:Standup (theirs)\r\n")
    #expect(try server.put("/ann/work/standup.ics", theirs) == "204")
    let clash = try setup.sync()
    let conflicts = try #require(clash["conflicts"] as? [[String: Any]])
    #expect(conflicts.count == 1 && conflicts.first?["name"] as? String == "standup", "\(clash)")
    (remote, local) = try Self.same(setup, workID)
    #expect(remote == local && local.contains("Standup (theirs)") && !local.contains("(mine)"), "\(local)")
    let shown = try store.object(["account", "show", "Home"])
    let conflict = try #require((shown["conflicts"] as? [[String: Any]])?.first)
    let localVersion = try #require(conflict["localVersion"] as? Int)
    let record = try store.object(["log", "show", String(try #require(conflict["position"] as? Int))])
    #expect(record["kind"] as? String == "remoteConflict", "\(record)")
    let history = try store.objects(["event", "history", standup, "--format", "json"])
    let mine = try #require(history.first { $0["version"] as? Int == localVersion })
    #expect((mine["state"] as? [String: Any])?["title"] as? String == "Standup (mine)", "\(history)")

    // Restored, the person's version goes out over the server's.
    #expect(try store.run(["event", "restore", standup, "--version", String(localVersion)]).status == 0)
    let restored = try setup.sync()
    #expect(restored["sent"] as? Int == 1, "\(restored)")
    (remote, local) = try Self.same(setup, workID)
    #expect(remote == local && remote.contains("Standup (mine)"), "\(remote)")

    // The outbox is derived from the log: a rebuild keeps it, and the store verifies.
    #expect(try store.run(["rebuild"]).status == 0)
    #expect(try Self.outgoing(store) == 0)
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func appsWriteIntoAccountCalendarsThroughTheGateAndARefusedAppSendsNothing() throws {
    let setup = try Setup()
    _ = try setup.add()
    let store = setup.store
    let workID = try Self.work(store)
    let (planner, scribe, stranger) = ("com.example.planner", "com.example.scribe", "com.example.stranger")
    for (app, status) in [(planner, "full"), (scribe, "write-only"), (stranger, "denied")] {
      try store.register(app)
      #expect(try store.run(["access", "set", app, "--service", "calendars", "--status", status]).status == 0)
    }
    for (app, title) in [(planner, "Planned"), (scribe, "Scribbled")] {
      let added = try store.run([
        "event", "add", "--title", title, "--calendar", workID, "--start", "2026-12-16T09:00", "--as", app,
      ])
      #expect(added.status == 0, "\(app): \(added.stderr)")
    }
    let refused = try store.run([
      "event", "add", "--title", "Sneaky", "--calendar", workID, "--start", "2026-12-17T09:00", "--as", stranger,
    ])
    #expect(refused.status == 68, "\(refused.stderr)")
    #expect(try Self.outgoing(store) == 2)
    let refusals = try Self.records(store, "accessAttemptRefused")
    #expect("\(refusals)".contains(stranger), "\(refusals)")

    let sent = try setup.sync()
    #expect(sent["sent"] as? Int == 2, "\(sent)")
    let (remote, local) = try Self.same(setup, workID)
    #expect(remote == local && remote.contains("Planned") && remote.contains("Scribbled"), "\(remote)")
    #expect(!remote.contains("Sneaky"))
    // The app's write is its fact, the delivery the account's.
    let planned = try #require(try Self.event(store, "Planned", in: workID)["id"] as? String)
    let versions = try store.objects(["event", "history", planned, "--format", "json"])
    #expect(versions.count == 1 && "\(versions[0]["actor"] ?? "")".contains(planner), "\(versions)")
    let delivered = try Self.records(store, "remoteDelivered")
    #expect(delivered.count == 2 && "\(delivered)".contains("source"), "\(delivered)")
  }

  @Test(arguments: ["120", "date:300"])
  func aBusyServerIsLeftAloneForWhatItsRetryAfterAsks(_ retryAfter: String) throws {
    let setup = try Setup()
    _ = try setup.add()
    let store = setup.store
    #expect(
      try store.run([
        "event", "add", "--title", "Waiting", "--calendar", try Self.work(store), "--start", "2026-12-20T09:00",
      ])
      .status == 0)
    // The account's address now answers 503 with a Retry-After: seconds, or an HTTP date.
    setup.server.stop()
    let (busy, output, errors) = try CLI.start(
      [
        "python3", Repository.root.appendingPathComponent("Tests/Oracles/busy_server.py").path, setup.server.port,
        retryAfter,
      ], program: URL(fileURLWithPath: "/usr/bin/env"))
    defer {
      kill(busy.processIdentifier, SIGKILL)
      _ = CLI.finish(busy, output, errors)
    }
    _ = output.fileHandleForReading.availableLine()
    let started = Date()
    let failed = try store.run(["account", "sync"])
    #expect(failed.status != 0 && (failed.stdout + failed.stderr).contains("busy (503)"), "\(failed.stdout)")
    let sync = try #require(try store.object(["account", "show", "Home"])["sync"] as? [String: Any])
    let next = try #require((sync["nextAttempt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
    let asked: Double = retryAfter == "120" ? 120 : 300
    let waits = next.timeIntervalSince(started)
    #expect(waits > asked - 5 && waits < asked + 5, "waits \(waits) s, asked \(asked): \(sync)")
    #expect(sync["outgoing"] as? Int == 1 && (sync["lastError"] as? String)?.contains("busy") == true, "\(sync)")
  }

  @Test func aCalendarMadeOrRemovedInAnAccountIsMadeOrRemovedOnTheServer() throws {
    let setup = try Setup()
    _ = try setup.add()
    let store = setup.store
    let made = try store.object(["calendar", "create", "Trips", "--account", "Home", "--color", "#34C759"])
    let tripsID = try #require(made["id"] as? String)
    #expect((made["source"] as? [String: Any])?["kind"] as? String == "calDAV", "\(made)")
    #expect(
      try store.run(["event", "add", "--title", "Lisbon", "--calendar", tripsID, "--start", "2026-12-22T08:00"])
        .status == 0)
    // Not on the server yet; the next sync makes it there, then sends what it holds.
    #expect(try setup.server.curl("PROPFIND", "/ann/\(tripsID.lowercased())/") == "404")
    let synced = try setup.sync()
    #expect(synced["calendarsMade"] as? Int == 1 && synced["sent"] as? Int == 1, "\(synced)")
    let properties = try CLI.run(
      [
        "curl", "-s", "-u", "ann:s3cret-pass", "-X", "PROPFIND", "-H", "Depth: 0",
        setup.server.base + "/ann/\(tripsID.lowercased())/",
      ], program: URL(fileURLWithPath: "/usr/bin/env")
    ).stdout
    #expect(
      properties.contains("Trips") && properties.contains("VEVENT") && properties.contains("#34C759"), "\(properties)")
    #expect(try setup.server.get("/ann/\(tripsID.lowercased())/").contains("SUMMARY:Lisbon"))
    // The same calendar, now synced: not a second one, and an idle sync makes nothing.
    let calendars = try store.objects(["calendar", "list"]).filter { $0["title"] as? String == "Trips" }
    #expect(calendars.count == 1 && calendars.first?["id"] as? String == tripsID, "\(calendars)")
    let idle = try setup.sync()
    #expect(idle["calendarsMade"] as? Int == 0 && idle["calendarsAdded"] as? Int == 0, "\(idle)")
    // Removed here, as EventKit removes a CalDAV calendar: removed on the server by the next sync,
    // and not brought back by its listing.
    #expect(try store.run(["calendar", "remove", tripsID]).status == 0)
    let removal = try setup.sync()
    #expect(removal["calendarsRemovedThere"] as? Int == 1 && removal["calendarsAdded"] as? Int == 0, "\(removal)")
    #expect(try setup.server.curl("PROPFIND", "/ann/\(tripsID.lowercased())/") == "404")
    #expect(try store.objects(["calendar", "list"]).allSatisfy { $0["title"] as? String != "Trips" })
    let after = try setup.sync()
    #expect(after["calendarsRemovedThere"] as? Int == 0 && after["requests"] as? Int == 1, "\(after)")
    // Removing the account removes nothing there: its calendars stay on the server.
    #expect(try store.run(["account", "remove", "Home"]).status == 0)
    #expect(try setup.server.curl("PROPFIND", "/ann/work/") == "207")
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func twoSyncsAtOnceSendEachChangeOnceAndSeeNoConflict() throws {
    let setup = try Setup()
    _ = try setup.add()
    let store = setup.store
    let workID = try Self.work(store)
    // 300 events made here, in one import, so that the two sends would overlap.
    let events = (0..<300).map { AccountSyncTests.event("busy\($0)@here", "Busy \($0)", day: 10 + $0 % 20) }
    let file = store.directory.path + "/busy.ics"
    try AccountSyncTests.file(events.joined()).write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try store.run(["import", file, "--calendar", workID]).status == 0)
    #expect(try Self.outgoing(store) == 300)
    // Two processes at once: the second waits for the first's lock, then finds nothing to send.
    let started = (0..<2).map { _ in
      try? CLI.start(["account", "sync", "--format", "json", "--store", store.directory.storePath])
    }
    let results = started.compactMap { $0 }.map { CLI.finish($0.0, $0.1, $0.2) }
    #expect(results.count == 2 && results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
    let summaries = try results.map { try #require((try json($0.stdout) as? [[String: Any]])?.first) }
    #expect(summaries.map { $0["sent"] as? Int ?? -1 }.sorted() == [0, 300], "\(summaries)")
    #expect(summaries.allSatisfy { ($0["conflicts"] as? [Any])?.isEmpty == true }, "\(summaries)")
    #expect(try Self.records(store, "remoteConflict").isEmpty)
    #expect(try setup.server.get("/ann/work/").components(separatedBy: "SUMMARY:Busy").count == 301)
  }

  @Test func aWriteOnlyDAVClientsPutIntoAnAccountCalendarReachesTheServer() throws {
    let setup = try Setup()
    _ = try setup.add()
    let store = setup.store
    let workID = try Self.work(store)
    let app = "com.example.scribe"
    try store.object(["client", "register", app, "--name", "Scribe", "--usage", "calendars-write-only=Adds."])
    #expect(try store.run(["access", "set", app, "--service", "calendars", "--status", "write-only"]).status == 0)
    let secret = try #require(
      try store.object(["client", "token", "create", app, "--label", "dav"])["secret"] as? String)
    // The store served over TCP; its `kalends serve` sends what waits within seconds.
    let served = try ServedStore(serving: store, ["--listen", "127.0.0.1:0"])
    defer { served.stop() }
    let address = "http://" + (try #require(served.tcpAddress))
    let body = AccountSyncTests.file(AccountSyncTests.event("scribbled@dav", "Scribbled over DAV", day: 23))
    func put(_ path: String) throws -> String {
      try CLI.run(
        [
          "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "scribe:\(secret)", "-X", "PUT", "-H",
          "Content-Type: text/calendar", "-H", "If-None-Match: *", "--data-binary", body, address + path,
        ], program: URL(fileURLWithPath: "/usr/bin/env")
      ).stdout
    }
    #expect(try put("/dav/calendars/\(workID)/scribbled.ics") == "201")
    var seen = ""
    for _ in 0..<300 where !seen.contains("Scribbled over DAV") {
      Thread.sleep(forTimeInterval: 0.1)
      seen = try setup.server.get("/ann/work/")
    }
    #expect(seen.contains("SUMMARY:Scribbled over DAV"), "\(seen)")
    // The write-only app reads nothing back, over DAV either.
    let read = try CLI.run(
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "scribe:\(secret)",
        address + "/dav/calendars/\(workID)/scribbled.ics",
      ],
      program: URL(fileURLWithPath: "/usr/bin/env")
    ).stdout
    #expect(read == "403" || read == "404", "\(read)")
  }

  @Test func aChangeMadeWhileTheServerIsDownWaitsAndGoesOutWhenItAnswers() throws {
    let setup = try Setup()
    _ = try setup.add()
    let store = setup.store
    let workID = try Self.work(store)
    let port = setup.server.port
    setup.server.stop()
    #expect(
      try store.run(["event", "add", "--title", "Offline", "--calendar", workID, "--start", "2026-12-18T09:00"]).status
        == 0)
    let failed = try store.run(["account", "sync"])
    #expect(failed.status != 0, "\(failed.stdout)")
    let shown = try store.object(["account", "show", "Home"])
    let sync = try #require(shown["sync"] as? [String: Any])
    #expect(sync["outgoing"] as? Int == 1 && sync["lastError"] is String && sync["nextAttempt"] is String, "\(sync)")

    // Back on the same address: the person's `account sync` (which does not wait out the backoff
    // `kalends serve` keeps) sends what waited.
    let again = try AccountSyncTests.Radicale(store.directory.path + "/radicale", port: port)
    let sent = try setup.sync()
    #expect(sent["sent"] as? Int == 1, "\(sent)")
    #expect(try again.get("/ann/work/").contains("Offline"))
    #expect(try Self.outgoing(store) == 0)

    // While `kalends serve` runs, a write reaches the server within seconds, unasked.
    let served = try ServedStore(serving: store)
    #expect(
      try store.run(["event", "add", "--title", "Served", "--calendar", workID, "--start", "2026-12-19T09:00"]).status
        == 0)
    var seen = ""
    for _ in 0..<300 where !seen.contains("Served") {
      Thread.sleep(forTimeInterval: 0.1)
      seen = try again.get("/ann/work/")
    }
    served.stop()
    #expect(seen.contains("SUMMARY:Served"), "\(seen)")
  }
}
