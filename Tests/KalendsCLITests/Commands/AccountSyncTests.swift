import Foundation
import KalendsTestSupport
import Testing

/// `kalends account add|sync|show|remove` against a real CalDAV server: Radicale 3 from PyPI
/// (Tests/Oracles/radicale_server.py), its collections and objects made with curl as any client
/// makes them; what the store holds compared with what the server holds by PyPI's `icalendar`.
@Suite("Command line: an account's calendars are synced into the store")
struct AccountSyncTests {
  typealias Radicale = AccountProbeTests.Radicale

  static func event(_ uid: String, _ summary: String, day: Int, rule: String? = nil, extra: String = "") -> String {
    "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261129T100000Z\r\nDTSTART:202612\(String(format: "%02d", day))T090000Z\r\n"
      + "DTEND:202612\(String(format: "%02d", day))T100000Z\r\nSUMMARY:\(summary)\r\n" + extra
      + (rule.map { "RRULE:\($0)\r\n" } ?? "") + "END:VEVENT\r\n"
  }

  static func file(_ components: String...) -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Tests//EN\r\n" + components.joined() + "END:VCALENDAR\r\n"
  }

  static let series = file(
    event("standup@home", "Standup", day: 7, rule: "FREQ=DAILY;COUNT=5"),
    "BEGIN:VEVENT\r\nUID:standup@home\r\nDTSTAMP:20261129T100000Z\r\nRECURRENCE-ID:20261208T090000Z\r\n"
      + "DTSTART:20261208T110000Z\r\nDTEND:20261208T120000Z\r\nSUMMARY:Standup moved\r\nEND:VEVENT\r\n")

  /// The events of every iCalendar text in `texts` as `icalendar` reads them: UID, RECURRENCE-ID,
  /// SUMMARY, DTSTART, RRULE, sorted.
  static func oracle(_ texts: [String]) throws -> String {
    try CLI.python(
      """
      import sys, icalendar
      rows = []
      for text in sys.argv[1:]:
          for e in icalendar.Calendar.from_ical(text).walk("VEVENT"):
              rows.append((str(e.get("UID")), e.get("RECURRENCE-ID").dt.isoformat() if e.get("RECURRENCE-ID") else "",
                           str(e.get("SUMMARY")), e.get("DTSTART").dt.isoformat(),
                           e.get("RRULE").to_ical().decode() if e.get("RRULE") else ""))
      print(sorted(rows))
      """, texts)
  }

  /// A store with Radicale's account `Home` added: Work (events) and Tasks (to-dos).
  final class Setup {
    let store: CLIStore
    let server: Radicale
    let passwordFile: String

    init() throws {
      store = try CLIStore()
      server = try Radicale(store.directory.path + "/radicale")
      #expect(try server.curl("MKCALENDAR", "/ann/work/", AccountProbeTests.mkcalendar("Work", "VEVENT")) == "201")
      #expect(try server.curl("MKCALENDAR", "/ann/tasks/", AccountProbeTests.mkcalendar("Tasks", "VTODO")) == "201")
      passwordFile = store.directory.path + "/password"
      try "s3cret-pass\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
      chmod(passwordFile, 0o600)
    }

    func add() throws -> [String: Any] {
      let added = try store.run([
        "account", "add", "caldav", server.base, "--user", "ann", "--password-file", passwordFile, "--title", "Home",
        "--format", "json",
      ])
      try #require(added.status == 0, "\(added.stdout) \(added.stderr)")
      return try #require((try json(added.stdout) as? [[String: Any]])?.first)
    }

    func sync() throws -> [String: Any] {
      let synced = try store.run(["account", "sync", "--format", "json"])
      try #require(synced.status == 0, "\(synced.stdout) \(synced.stderr)")
      return try #require((try json(synced.stdout) as? [[String: Any]])?.first)
    }

    /// The remote objects of Work, as the server gives them.
    func remoteWork(_ names: [String]) throws -> [String] {
      try names.map { try server.get("/ann/work/\($0).ics") }
    }
  }

  @Test func anAccountsEventsAndTasksComeIntoCalendarsWrittenByTheAccount() throws {
    let setup = try Setup()
    let (store, server) = (setup.store, setup.server)
    #expect(try server.put("/ann/work/lunch.ics", Self.file(Self.event("lunch@home", "Lunch", day: 3))) == "201")
    #expect(try server.put("/ann/work/standup.ics", Self.series) == "201")
    #expect(
      try server.put(
        "/ann/tasks/milk.ics",
        Self.file("BEGIN:VTODO\r\nUID:milk@home\r\nDTSTAMP:20261129T100000Z\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\n"))
        == "201")

    let first = try setup.add()
    #expect(first["calendarsAdded"] as? Int == 2 && first["created"] as? Int == 3, "\(first)")
    let calendars = try store.objects(["calendar", "list"])
    let work = try #require(calendars.first { $0["title"] as? String == "Work" })
    let workID = try #require(work["id"] as? String)
    #expect(work["allowsContentModifications"] as? Bool == true, "Radicale lets ann write: \(work)")
    #expect((work["source"] as? [String: Any])?["kind"] as? String == "calDAV", "\(work)")
    #expect((work["source"] as? [String: Any])?["title"] as? String == "Home")
    #expect(try store.objects(["reminder", "list"]).map { $0["title"] as? String } == ["Buy milk"])
    let exported = try store.run(["export", "--calendar", workID]).stdout
    #expect(try Self.oracle([exported]) == Self.oracle(try setup.remoteWork(["lunch", "standup"])), "\(exported)")

    // Changes on the server: one changed, one removed, one new; a sync brings exactly them.
    let moved = Self.series.replacingOccurrences(of: "SUMMARY:Standup moved", with: "SUMMARY:Standup moved again")
    #expect(try server.put("/ann/work/standup.ics", moved) == "204")
    #expect(try server.curl("DELETE", "/ann/work/lunch.ics") == "200")
    #expect(try server.put("/ann/work/party.ics", Self.file(Self.event("party@home", "Party", day: 20))) == "201")
    let second = try setup.sync()
    #expect(
      second["created"] as? Int == 1 && second["updated"] as? Int == 1 && second["removed"] as? Int == 1, "\(second)")
    let now = try store.run(["export", "--calendar", workID]).stdout
    #expect(try Self.oracle([now]) == Self.oracle(try setup.remoteWork(["standup", "party"])), "\(now)")

    // The records are the account's, and history says so.
    #expect(try store.run(["log", "tail", "-n", "3"]).stdout.contains("source:"))
    let party = try #require(
      try store.objects(["event", "list", "--calendar", workID]).first { $0["title"] as? String == "Party" })
    let history = try store.run(["event", "history", try #require(party["id"] as? String)]).stdout
    #expect(history.contains("account “Home”"), "\(history)")

    // Nothing new: the one listing of the home, whose ctags are those of the last sync; nothing written.
    let head = try store.head()
    let idle = try setup.sync()
    #expect(idle["requests"] as? Int == 1 && idle["created"] as? Int == 0, "\(idle)")
    #expect(try store.head() == head)

    // Derived state is the log's: a rebuild gives the same answer, and the store verifies.
    let before = try store.run(["export", "--calendar", workID]).stdout
    #expect(try store.run(["rebuild"]).status == 0)
    #expect(try store.run(["export", "--calendar", workID]).stdout == before)
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func manyObjectsSyncInBatchesAndAnObjectTooLargeIsQuarantinedNotTheCollection() throws {
    let setup = try Setup()
    // 1,100 events written as Radicale's own files (three multiget batches), and one of 1.2 MB by PUT.
    _ = try CLI.python(
      """
      import base64, os, sys, urllib.request
      event = "BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//T//EN\\r\\nBEGIN:VEVENT\\r\\nUID:{0}\\r\\nDTSTAMP:20261129T100000Z\\r\\nDTSTART:20261210T090000Z\\r\\nDTEND:20261210T100000Z\\r\\nSUMMARY:{1}\\r\\n{2}END:VEVENT\\r\\nEND:VCALENDAR\\r\\n"
      for i in range(1100):
          with open(os.path.join(sys.argv[2], "e%04d.ics" % i), "w", newline="") as file:
              file.write(event.format("e%04d@home" % i, "Event %d" % i, ""))
      auth = "Basic " + base64.b64encode(b"ann:s3cret-pass").decode()
      body = event.format("huge@home", "Huge", "DESCRIPTION:" + "x" * 1200000 + "\\r\\n").encode()
      urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/ann/work/huge.ics", data=body, method="PUT",
                                                    headers={"Authorization": auth, "Content-Type": "text/calendar"}))
      """, [setup.server.base, setup.store.directory.path + "/radicale/collections/collection-root/ann/work"])
    let first = try setup.add()
    #expect(first["created"] as? Int == 1100, "\(first)")
    let quarantined = try #require(first["quarantined"] as? [[String: Any]])
    #expect(quarantined.count == 1 && quarantined.first?["name"] as? String == "huge", "\(quarantined)")
    let shown = try setup.store.run(["account", "show", "Home"]).stdout
    #expect(shown.contains("quarantined: Work / huge: it has"), "\(shown)")
    #expect(try setup.store.objects(["event", "list", "--calendar", "Work"]).count == 1100)
    // The next sync fetches nothing again: what the store holds carries its ETag; the quarantined
    // object stays named until the server changes it.
    #expect(try setup.sync()["created"] as? Int == 0)
    #expect(try setup.store.run(["account", "show", "Home"]).stdout.contains("quarantined: Work / huge"))
    #expect(
      try setup.server.put("/ann/work/huge.ics", Self.file(Self.event("huge@home", "Huge no more", day: 11))) == "204")
    let fixed = try setup.sync()
    #expect(fixed["created"] as? Int == 1 && (fixed["quarantined"] as? [Any])?.isEmpty == true, "\(fixed)")
    #expect(!(try setup.store.run(["account", "show", "Home"]).stdout.contains("quarantined:")))
  }

  @Test func aCollectionGoneFromTheServerAndARemovedAccountLeaveNothingBehind() throws {
    let setup = try Setup()
    #expect(
      try setup.server.put(
        "/ann/tasks/milk.ics",
        Self.file(
          "BEGIN:VTODO\r\nUID:milk@home\r\nDTSTAMP:20261129T100000Z\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\n")) == "201")
    let added = try setup.add()
    let id = try #require(added["id"] as? String)
    #expect(try setup.server.curl("DELETE", "/ann/tasks/") == "200")
    let synced = try setup.sync()
    #expect(synced["calendarsRemoved"] as? Int == 1, "\(synced)")
    #expect(try setup.store.objects(["reminder", "list"]).isEmpty)

    // Renamed: the account and its calendars' source; a new password command replaces the file's.
    let renamed = try setup.store.object([
      "account", "update", "Home", "--title", "Home server", "--password-command", "echo s3cret-pass",
    ])
    #expect(renamed["title"] as? String == "Home server")
    #expect(
      try setup.store.objects(["calendar", "list"]).contains {
        ($0["source"] as? [String: Any])?["title"] as? String == "Home server"
      })
    #expect(try setup.sync()["requests"] as? Int == 1, "the command's password signs in")
    #expect(try setup.store.run(["account", "update", "Home server", "--title", "Home"]).status == 0)

    let credentials = setup.store.directory.storePath + "/accounts/\(id).credentials"
    #expect(FileManager.default.fileExists(atPath: credentials))
    let mode = try FileManager.default.attributesOfItem(atPath: credentials)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try setup.store.run(["account", "remove", "Home"]).status == 0)
    #expect(try setup.store.objects(["account", "list"]).isEmpty)
    #expect(
      try setup.store.objects(["calendar", "list"]).allSatisfy {
        ($0["source"] as? [String: Any])?["kind"] as? String != "calDAV"
      })
    let leftBeside = try FileManager.default.contentsOfDirectory(atPath: setup.store.directory.storePath + "/accounts")
    #expect(!leftBeside.contains { $0.hasPrefix(id) }, "its credentials, status and lock are gone: \(leftBeside)")
    #expect(try setup.store.run(["verify"]).status == 0)
  }

  @Test func anAppSeesAnAccountsCalendarButNeverItsAddressUserOrPassword() throws {
    let setup = try Setup()
    #expect(try setup.server.put("/ann/work/lunch.ics", Self.file(Self.event("lunch@home", "Lunch", day: 3))) == "201")
    _ = try setup.add()
    let app = "com.example.planner"
    try setup.store.register(app)
    #expect(try setup.store.run(["access", "set", app, "--service", "calendars", "--status", "full"]).status == 0)
    var answers = ""
    let workID = try #require(
      try setup.store.objects(["calendar", "list"]).first { $0["title"] as? String == "Work" }?["id"] as? String)
    for command in [
      ["calendar", "list", "--format", "json"],
      ["events", "--from", "2026-12-01", "--to", "2026-12-31", "--format", "json"],
      ["event", "list", "--calendar", workID, "--format", "json"],
    ] {
      let result = try setup.store.run(command + ["--as", app])
      #expect(result.status == 0, "\(command): \(result.stderr)")
      answers += result.stdout + result.stderr
    }
    #expect(answers.contains("Lunch") && answers.contains("Home"), "\(answers)")
    for secret in [setup.server.base, "127.0.0.1", "\"ann\"", "/ann/", "s3cret-pass"] {
      #expect(!answers.contains(secret), "an app's answer names \(secret)")
    }
    let refused = try setup.store.run(["account", "show", "Home", "--as", app])
    #expect(refused.status == 68, "\(refused.stderr)")
    // The password is in no file the store writes.
    let grep = try CLI.run(
      ["grep", "-rl", "s3cret-pass", setup.store.directory.storePath], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(grep.stdout.isEmpty, "\(grep.stdout)")
  }

  @Test func kalendsServeSyncsAccountsAndStatusSaysWhen() throws {
    let setup = try Setup()
    _ = try setup.add()
    let shown = try setup.store.object(["account", "show", "Home"])
    let synced = try #require(shown["sync"] as? [String: Any])
    #expect(synced["lastSync"] is String && synced["lastError"] is NSNull, "\(synced)")
    #expect(
      try setup.server.put("/ann/work/skating.ics", Self.file(Self.event("skating@home", "Skating", day: 12))) == "201")
    let served = try ServedStore(serving: setup.store)
    var seen = ""
    for _ in 0..<100 where !seen.contains("Skating") {
      Thread.sleep(forTimeInterval: 0.1)
      seen = try setup.store.run(["events", "--from", "2026-12-01", "--to", "2026-12-31"]).stdout
    }
    served.stop()
    #expect(seen.contains("Skating"), "\(seen)")

    // A server that does not answer: the sync fails, says why, and status tells the person.
    setup.server.stop()
    let failed = try setup.store.run(["account", "sync"])
    #expect(failed.status == 66 && failed.stdout.contains("failed: unreachable"), "\(failed.stdout) \(failed.stderr)")
    let status = try setup.store.object(["status"])
    #expect(status["accounts"] as? Int == 1)
    let accounts = try #require(status["accountSync"] as? [[String: Any]])
    #expect((accounts.first?["lastError"] as? String)?.contains("unreachable") == true, "\(accounts)")
    #expect(accounts.first?["lastSync"] is String)
    #expect(try setup.store.run(["status"]).stdout.contains("the last sync failed at"))
  }

  @Test func aSyncKilledAnywhereResumesWithNothingLostAndNothingTwice() throws {
    // tools/account-crash: Radicale with 600 objects and an address book of 600 cards (30 groups),
    // `account sync` SIGKILLed 5 times (most after some batches were committed), then one sync to
    // the end, the cards checked by vobject; then 270 events and 285 cards changed here and the
    // syncs sending them killed 5 times; checked against the server's files by icalendar and
    // vobject, by
    // `verify`, by no conflict recorded and nothing left waiting, and by a last sync that writes
    // nothing.
    let result = try CLI.run(
      [
        "python3", Repository.root.appendingPathComponent("tools/account-crash").path, "--objects", "600", "--cards",
        "600", "--kills", "5", "--send", "300", "--kalends", CLI.executable.path,
      ], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
    let summary = try #require(try json(String(result.stdout.split(separator: "\n").last ?? "")) as? [String: Any])
    #expect(
      summary["ok"] as? Bool == true && summary["events"] as? Int == 660 && summary["cards"] as? Int == 600,
      "\(summary)")
    #expect((summary["kills"] as? Int ?? 0) >= 1 && (summary["sendKills"] as? Int ?? 0) >= 1, "\(summary)")
  }

  @Test func aSecondKalendsStoreServedOverDAVIsAnAccountThroughItsOwnPrivacyGate() throws {
    // Store B, served over TCP, gives the syncing program a token with access to calendars only.
    let remote = try ServedStore(["--listen", "127.0.0.1:0"])
    defer { remote.stop() }
    let family = try remote.store.calendar("Family")
    try remote.store.object(["event", "add", "--title", "Dinner", "--calendar", family, "--start", "2026-12-05T18:00"])
    try remote.store.object([
      "event", "add", "--title", "Swim", "--calendar", family, "--start", "2026-12-07T07:00", "--rrule",
      "FREQ=WEEKLY;COUNT=4",
    ])
    let app = "dev.kalends.sync"
    try remote.store.object(["client", "register", app, "--name", "Kalends sync", "--usage", "calendars-full=Syncs."])
    #expect(try remote.store.run(["access", "set", app, "--service", "calendars", "--status", "full"]).status == 0)
    let secret = try #require(
      try remote.store.object(["client", "token", "create", app, "--label", "a"])["secret"] as? String)
    let address = "http://" + (try #require(remote.tcpAddress))

    let store = try CLIStore()
    let added = try store.run([
      "account", "add", "caldav", address, "--user", "any", "--password-command", "echo \(secret)", "--title", "Peer",
      "--format", "json",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("\"created\":2"), "\(added.stdout)")
    func titles() throws -> [String] {
      try store.objects(["events", "--from", "2026-12-01", "--to", "2026-12-31"]).compactMap { $0["title"] as? String }
    }
    #expect(try titles() == ["Dinner", "Swim", "Swim", "Swim", "Swim"])

    // A change and a removal on B come with the next sync.
    let dinner = try #require(
      try remote.store.objects(["event", "list", "--calendar", family]).first { $0["title"] as? String == "Dinner" })
    try remote.store.object(["event", "update", try #require(dinner["id"] as? String), "--title", "Dinner at 8"])
    let swim = try #require(
      try remote.store.objects(["event", "list", "--calendar", family]).first { $0["title"] as? String == "Swim" })
    #expect(try remote.store.run(["event", "remove", try #require(swim["id"] as? String)]).status == 0)
    let synced = try store.run(["account", "sync", "--format", "json"])
    #expect(synced.stdout.contains("\"updated\":1") && synced.stdout.contains("\"removed\":1"), "\(synced.stdout)")
    #expect(try titles() == ["Dinner at 8"])

    // Both ways: a change here goes out through B's gate, as the syncing app's write there.
    let mirrored = try #require(
      try store.objects(["events", "--from", "2026-12-01", "--to", "2026-12-31"]).first {
        $0["title"] as? String == "Dinner at 8"
      })
    #expect(
      try store.run(["event", "update", try #require(mirrored["id"] as? String), "--title", "Dinner at 7"]).status == 0)
    #expect(
      try store.run([
        "event", "add", "--title", "Movie", "--calendar", try #require(mirrored["calendarId"] as? String),
        "--start", "2026-12-12T20:00",
      ]).status == 0)
    let sent = try store.run(["account", "sync", "--format", "json"])
    #expect(sent.stdout.contains("\"sent\":2"), "\(sent.stdout) \(sent.stderr)")
    let there = try remote.store.objects(["event", "list", "--calendar", family])
    #expect(Set(there.compactMap { $0["title"] as? String }) == ["Dinner at 7", "Movie"], "\(there)")
    let movieHistory = try remote.store.objects([
      "event", "history", try #require(there.first { $0["title"] as? String == "Movie" }?["id"] as? String),
      "--format", "json",
    ])
    let movieActor = "\(movieHistory.first?["actor"] ?? "")"
    #expect(movieActor.contains(app), "\(movieHistory)")
    let again = try store.run(["account", "sync", "--format", "json"])
    #expect(again.stdout.contains("\"sent\":0") && again.stdout.contains("\"updated\":0"), "\(again.stdout)")

    // The token as an OAuth Bearer token (what Google's CalDAV takes) finds the same account.
    let bearer = try CLI.run([
      "account", "probe", address, "--user", "-", "--token-command", "echo \(secret)", "--format", "json",
    ])
    #expect(bearer.status == 0 && bearer.stdout.contains("Family"), "\(bearer.stdout) \(bearer.stderr)")

    // B's audit says what the syncing program read, as of any app.
    let uses = try remote.store.run(["audit", "uses", "--client", app]).stdout
    #expect(uses.contains("Family") || uses.contains(family), "\(uses)")
  }

  @Test func objectsSharingAUIDAreQuarantinedWhicheverBatchTheyFallIn() throws {
    let setup = try Setup()
    // 1,100 files, written as Radicale's own (a client's PUT would be refused): 150 of them repeat
    // another's UID under a name of their own, spread over the three batches a sync makes.
    _ = try CLI.python(
      """
      import os, sys
      event = "BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//T//EN\\r\\nBEGIN:VEVENT\\r\\nUID:{0}\\r\\nDTSTAMP:20261129T100000Z\\r\\nDTSTART:20261210T090000Z\\r\\nDTEND:20261210T100000Z\\r\\nSUMMARY:{1}\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n"
      for i in range(1100):
          uid = "e%04d@home" % (i - 950 if i >= 950 else i)
          with open(os.path.join(sys.argv[1], "e%04d.ics" % i), "w", newline="") as file:
              file.write(event.format(uid, "Event %d" % i))
      """, [setup.store.directory.path + "/radicale/collections/collection-root/ann/work"])
    let first = try setup.add()
    let quarantined = try #require(first["quarantined"] as? [[String: Any]])
    #expect(
      first["created"] as? Int == 950 && quarantined.count == 150, "\(first["created"] ?? "") \(quarantined.count)")
    let shown = try setup.store.object(["account", "show", "Home"])
    let calendars = try #require(shown["calendars"] as? [[String: Any]])
    let kept = calendars.flatMap { ($0["quarantined"] as? [[String: Any]]) ?? [] }
    #expect(kept.count == 100, "the calendar keeps the first 100 of the 150 (RemoteCollection.maximumQuarantined)")
  }
}
