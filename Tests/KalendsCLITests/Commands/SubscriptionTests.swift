import Foundation
import KalendsTestSupport
import Testing

/// `kalends subscribe` and `kalends subscription` against a feed served by a real HTTP server of
/// Python's standard library (Tests/Oracles/feed_server.py), the result checked with PyPI's
/// `icalendar`.
@Suite("Command line: subscribed calendars mirror their feeds")
struct SubscriptionTests {
  static let feedServer = Repository.root.appendingPathComponent("Tests/Oracles/feed_server.py").path

  /// A started feed server serving `directory`, and its base address: over HTTPS with `tls` (a
  /// certificate and its key), named `host`.
  final class Feed {
    let directory: String
    let process: Process
    let port: Int
    let base: String

    init(_ directory: String, tls: (cert: String, key: String)? = nil, host: String = "127.0.0.1") throws {
      self.directory = directory
      let (process, output, _) = try CLI.start(
        ["python3", SubscriptionTests.feedServer, directory] + (tls.map { [$0.cert, $0.key] } ?? []),
        program: URL(fileURLWithPath: "/usr/bin/env"))
      self.process = process
      let printed = output.fileHandleForReading.availableLine()
      port = try #require(Int(printed), "the feed server printed \(printed)")
      base = "\(tls == nil ? "http" : "https")://\(host):\(port)"
    }

    func serve(_ events: [String], mode: String? = nil) throws {
      let text =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Feed//EN\r\nX-WR-CALNAME:Holidays\r\n"
        + "REFRESH-INTERVAL;VALUE=DURATION:PT6H\r\n" + events.joined() + "END:VCALENDAR\r\n"
      try text.write(toFile: directory + "/feed.ics", atomically: true, encoding: .utf8)
      let modeFile = directory + "/mode"
      if let mode {
        try mode.write(toFile: modeFile, atomically: true, encoding: .utf8)
      } else {
        try? FileManager.default.removeItem(atPath: modeFile)
      }
    }

    var requests: [String] {
      ((try? String(contentsOfFile: directory + "/requests.log", encoding: .utf8)) ?? "")
        .split(separator: "\n").map(String.init)
    }

    deinit {
      // SIGKILL: a child started by the test process inherits its blocked signals, SIGTERM among them.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  static func event(_ uid: String, _ summary: String, day: Int, rule: String? = nil) -> String {
    "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261129T100000Z\r\nDTSTART:202612\(String(format: "%02d", day))T090000Z\r\n"
      + "DTEND:202612\(String(format: "%02d", day))T100000Z\r\nSUMMARY:\(summary)\r\n"
      + (rule.map { "RRULE:\($0)\r\n" } ?? "") + "END:VEVENT\r\n"
  }

  static func override(_ uid: String, _ summary: String, day: Int) -> String {
    "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261129T100000Z\r\nRECURRENCE-ID:202612\(String(format: "%02d", day))T090000Z\r\n"
      + "DTSTART:202612\(String(format: "%02d", day))T110000Z\r\nDTEND:202612\(String(format: "%02d", day))T120000Z\r\n"
      + "SUMMARY:\(summary)\r\nEND:VEVENT\r\n"
  }

  /// The events of `ics` as `icalendar` reads them: UID, RECURRENCE-ID, SUMMARY, DTSTART, sorted.
  static func oracle(_ ics: String) throws -> String {
    try CLI.python(
      """
      import sys, icalendar
      cal = icalendar.Calendar.from_ical(sys.argv[1])
      rows = sorted(
          (str(e.get("UID")), e.get("RECURRENCE-ID").dt.isoformat() if e.get("RECURRENCE-ID") else "",
           str(e.get("SUMMARY")), e.get("DTSTART").dt.isoformat())
          for e in cal.walk("VEVENT"))
      print(rows)
      """, [ics])
  }

  @Test func aFeedIsMirroredRefreshedConditionallyAndItsChangesAreTheSources() throws {
    let store = try CLIStore()
    let feed = try Feed(store.directory.path)
    let first = [
      Self.event("a@feed", "New Year", day: 1), Self.event("b@feed", "Standup", day: 7, rule: "FREQ=DAILY;COUNT=5"),
      Self.override("b@feed", "Standup moved", day: 8), Self.event("c@feed", "Party", day: 20),
    ]
    try feed.serve(first)
    // Through a redirect, as feeds often are.
    let made = try store.object(["subscribe", feed.base + "/moved.ics"])
    let id = try #require(made["id"] as? String)
    #expect(made["title"] as? String == "Holidays")
    #expect(made["allowsContentModifications"] as? Bool == false)
    #expect((made["source"] as? [String: Any])?["kind"] as? String == "subscribed")
    let counts = try #require(made["feed"] as? [String: Any])
    #expect(counts["created"] as? Int == 3 && counts["refreshInterval"] as? Int == 6 * 3600, "\(counts)")
    let feedText = try String(contentsOfFile: store.directory.path + "/feed.ics", encoding: .utf8)
    let exported = try store.run(["export", "--calendar", id])
    #expect(try Self.oracle(exported.stdout) == Self.oracle(feedText), "\(exported.stdout)")

    // Unchanged: a conditional request, answered 304, writes nothing; subscribing again is refused.
    let head = try store.head()
    let twice = try store.run(["subscribe", feed.base + "/moved.ics"])
    #expect(twice.status == 67 && twice.stderr.contains(id), "\(twice.stderr)")
    let again = try store.run(["subscription", "refresh", "--format", "json"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("not modified"), "\(again.stdout)")
    #expect(feed.requests.last?.hasSuffix("\"") == true, "sent no If-None-Match: \(feed.requests)")
    #expect(try store.head() == head)

    // One changed, one gone, one new, one as it was.
    try feed.serve([
      Self.event("a@feed", "New Year's Day", day: 1),
      Self.event("b@feed", "Standup", day: 7, rule: "FREQ=DAILY;COUNT=5"),
      Self.override("b@feed", "Standup moved", day: 8), Self.event("d@feed", "Concert", day: 22),
    ])
    let changed = try store.run(["subscription", "refresh", "Holidays"])
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(changed.stdout.contains("1 new, 1 changed, 1 removed, 1 unchanged"), "\(changed.stdout)")
    let now = try String(contentsOfFile: store.directory.path + "/feed.ics", encoding: .utf8)
    #expect(try Self.oracle(try store.run(["export", "--calendar", id]).stdout) == Self.oracle(now))
    // The refresh's records are the subscription's own, not the person's.
    let tail = try store.run(["log", "tail", "-n", "4"]).stdout
    #expect(tail.contains("source:"), "\(tail)")
    let concert = try #require(
      try store.objects(["event", "list", "--calendar", id]).first { $0["title"] as? String == "Concert" })
    let history = try store.run(["event", "history", try #require(concert["id"] as? String)]).stdout
    #expect(history.contains("subscription “Holidays”"), "\(history)")
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func aFeedThatBreaksLeavesTheCalendarAsItWasAndSaysWhy() throws {
    let store = try CLIStore()
    let feed = try Feed(store.directory.path)
    try feed.serve([Self.event("a@feed", "New Year", day: 1), Self.event("c@feed", "Party", day: 20)])
    let id = try #require(
      try store.object(["subscribe", feed.base + "/feed.ics", "--title", "School"])["id"] as? String)
    let head = try store.head()
    for (mode, words) in [
      ("gone", "404"), ("html", "HTML"), ("big", "larger than"),
    ] {
      try feed.serve([], mode: mode)
      let refresh = try store.run(["subscription", "refresh"])
      #expect(refresh.status == 65, "\(mode): \(refresh.stdout) \(refresh.stderr)")
      #expect(refresh.stdout.contains(words), "\(mode): \(refresh.stdout)")
    }
    // An empty feed where the calendar holds events.
    try feed.serve([])
    let empty = try store.run(["subscription", "refresh"])
    #expect(empty.status == 65 && empty.stdout.contains("holds no events"), "\(empty.stdout)")
    #expect(try store.head() == head, "a broken feed wrote")
    let events = try store.run(["event", "list", "--calendar", id])
    #expect(events.stdout.contains("Party") && events.stdout.contains("New Year"), "\(events.stdout)")
  }

  /// A feed refused on subscribing (an HTML page, an event that ends before it starts) writes
  /// nothing: the calendar and its first feed are one transaction.
  @Test func aFeedRefusedOnSubscribingWritesNothing() throws {
    let store = try CLIStore()
    let feed = try Feed(store.directory.path)
    let head = try store.head()
    let refusedEvent =
      "BEGIN:VEVENT\r\nUID:bad@feed\r\nDTSTAMP:20261129T100000Z\r\nDTSTART:20261205T100000Z\r\n"
      + "DTEND:20261205T090000Z\r\nSUMMARY:Ends before it starts\r\nEND:VEVENT\r\n"
    for (mode, events, words) in [
      ("html", [String](), "HTML"),
      (nil, [Self.event("a@feed", "Fine", day: 1), refusedEvent], "ends before it starts"),
    ] {
      try feed.serve(events, mode: mode)
      let refused = try store.run(["subscribe", feed.base + "/feed.ics"])
      #expect(refused.status == 65, "\(mode ?? "event"): \(refused.stderr)")
      #expect(
        refused.stderr.contains("nothing was subscribed") && refused.stderr.contains(words),
        "\(mode ?? "event"): \(refused.stderr)")
    }
    #expect(try store.head() == head, "a refused feed wrote")
    let calendars = try store.run(["calendar", "list", "--format", "json"])
    #expect(!calendars.stdout.contains("subscribed"), "\(calendars.stdout)")
  }

  @Test func aSubscribedCalendarIsReadOnlyAndAnAppNeverSeesItsAddress() throws {
    let store = try CLIStore()
    let feed = try Feed(store.directory.path)
    try feed.serve([Self.event("a@feed", "New Year", day: 1)])
    let secret = feed.base + "/feed.ics?token=s3cr3t"
    let id = try #require(try store.object(["subscribe", secret])["id"] as? String)
    let app = "com.example.planner"
    _ = try store.object(["client", "register", app, "--name", "Planner", "--usage", "calendars-full=Your agenda."])
    _ = try store.object(["access", "set", app, "--service", "calendars", "--status", "full"])
    let listed = try store.run(["calendar", "list", "--as", app, "--format", "json"])
    #expect(listed.status == 0 && listed.stdout.contains(id), "\(listed.stderr)")
    #expect(!listed.stdout.contains("s3cr3t") && !listed.stdout.contains("127.0.0.1"), "\(listed.stdout)")
    for actor in [["--as", app], []] {
      let add = try store.run(
        ["event", "add", "--calendar", id, "--title", "Mine", "--start", "2026-12-03T09:00"] + actor)
      #expect(add.status == 68, "\(actor): \(add.stderr)")
      #expect(add.stderr.contains("read-only"), "\(add.stderr)")
    }
    #expect(!(try store.run(["event", "list", "--calendar", id]).stdout.contains("Mine")))
    // The app's attempt is recorded, as a refusal is; the person's is simply refused.
    let refusals = try store.run(["log", "tail", "-n", "3", "--format", "json"]).stdout
    #expect(refusals.contains("accessAttemptRefused") && refusals.contains("read-only calendar \(id)"), "\(refusals)")
    // The audit says what refused it, not that the app lacked access to calendars.
    let said = try store.run(["audit", "history", "--client", app]).stdout
    #expect(said.contains("write into the read-only calendar \(id) (calendars)"), "\(said)")
    let apps = try store.run(["subscription", "list", "--as", app])
    #expect(apps.status == 68, "an app listed subscriptions: \(apps.stdout)")
    let mine = try store.run(["subscription", "list"])
    #expect(mine.stdout.contains("s3cr3t"), "\(mine.stdout)")
  }

  @Test func anAppWatchingHearsARefreshAsOneNoticeNamingWhatChanged() throws {
    let store = try CLIStore()
    let feed = try Feed(store.directory.path)
    try feed.serve([Self.event("a@feed", "New Year", day: 1)])
    let id = try #require(try store.object(["subscribe", feed.base + "/feed.ics"])["id"] as? String)
    try store.register("com.example.planner")
    try store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "full"])
    let head = try #require(try store.object(["status"])["head"] as? Int)
    let (watcher, output, errors) = try CLI.start([
      "watch", "--store", store.directory.storePath, "--as", "com.example.planner", "--from", String(head + 1),
      "--limit", "1", "--format", "jsonl",
    ])
    try feed.serve([Self.event("a@feed", "New Year", day: 1), Self.event("f@feed", "Ski trip", day: 27)])
    #expect(try store.run(["subscription", "refresh"]).status == 0)
    let heard = CLI.finish(watcher, output, errors)
    #expect(heard.status == 0, "\(heard.stderr)")
    let trip = try #require(
      try store.objects(["event", "list", "--calendar", id]).first { $0["title"] as? String == "Ski trip" })
    #expect(heard.stdout.contains(try #require(trip["id"] as? String)), "\(heard.stdout)")
    #expect(heard.stdout.split(separator: "\n").count == 1, "one refresh, one notice: \(heard.stdout)")
  }

  @Test func anAddressWithAPasswordOrAnotherSchemeIsRefusedAndNothingIsWritten() throws {
    let store = try CLIStore()
    let head = try store.head()
    for address in ["https://me:pw@example.com/cal.ics", "ftp://example.com/cal.ics", "webcal://"] {
      let result = try store.run(["subscribe", address])
      #expect(result.status == 65, "\(address): \(result.stderr)")
    }
    #expect(try store.head() == head)
  }

  @Test func kalendsServeRefreshesSubscriptionsWhenItStarts() throws {
    let store = try CLIStore()
    let feed = try Feed(store.directory.path)
    try feed.serve([Self.event("a@feed", "New Year", day: 1)])
    let id = try #require(try store.object(["subscribe", feed.base + "/feed.ics"])["id"] as? String)
    try feed.serve([Self.event("a@feed", "New Year", day: 1), Self.event("e@feed", "Skating", day: 12)])
    let served = try ServedStore(serving: store)
    defer { served.stop() }
    var seen = ""
    for _ in 0..<100 where !seen.contains("Skating") {
      Thread.sleep(forTimeInterval: 0.1)
      seen = try store.run(["event", "list", "--calendar", id]).stdout
    }
    #expect(seen.contains("Skating"), "\(seen)")
  }
}
