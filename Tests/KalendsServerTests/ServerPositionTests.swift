import Foundation
import KalendsTestSupport
import Testing

/// What apps see of the log's positions through the store server. The review's finding: every
/// answer carried the store-wide position (`Kalends-Position`, ETags, change stream ids), so an
/// app given one calendar watched the position jump as the person added events to a hidden one.
@Suite("The store server shows apps no log position")
struct ServerPositionTests {
  static let week = "/v1/events?from=2026-03-02&to=2026-03-09"

  /// Adds an event titled `title` to `calendar` on 2026-03-`day` as the owner; its id.
  static func add(_ served: ServedStore, _ calendar: String, _ title: String, day: Int) throws -> String {
    let start = String(format: "2026-03-%02dT09:00:00", day)
    let end = String(format: "2026-03-%02dT10:00:00", day)
    let event = try served.store.object([
      "event", "add", "--calendar", calendar, "--title", title, "--start", start, "--end", end,
    ])
    return try #require(event["id"] as? String)
  }

  @Test func anAppGivenOneCalendarCannotWatchThePersonWriteInAnother() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let work = try served.store.calendar("Work")
    let health = try served.store.calendar("Health")
    try served.store.object([
      "access", "set", "com.example.agenda", "--service", "calendars", "--status", "full", "--calendars", work,
    ])
    let standup = try Self.add(served, work, "Standup", day: 2)

    let before = try served.exchange("GET", Self.week, by: agenda)
    let fetched = try served.exchange("GET", "/v1/events/\(standup)", by: agenda)
    #expect(before.status == 200 && fetched.status == 200)
    let hidden = try (0..<3).map { try Self.add(served, health, "Therapy \($0)", day: 3 + $0) }
    let after = try served.exchange("GET", Self.week, by: agenda)
    let refetched = try served.exchange("GET", "/v1/events/\(standup)", by: agenda)

    // What the app reads is byte for byte the same: its event's version tag did not move.
    #expect(try Self.rendered(after.body) == (try Self.rendered(before.body)))
    #expect(refetched.etag == fetched.etag)
    let version = try #require((fetched.body as? [String: Any])?["version"] as? String)
    #expect(fetched.etag == "\"\(version)\"")
    let stored = try #require(try served.store.object(["event", "show", standup])["version"] as? Int)
    // A 22-character base64url tag, not the stored version number. (A random tag contains a
    // given digit by chance, so the check is that the tag is no number, not that it lacks one.)
    let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    #expect(version.count == 22 && version.allSatisfy(alphabet.contains), "\(version)")
    #expect(Int(version) == nil && version != String(stored), "\(version) of \(stored)")
    // The read positions are tokens, fresh each time: unrelated whether the person wrote or not.
    let again = try served.exchange("GET", Self.week, by: agenda)
    let tokens = [before.position, after.position, again.position]
    #expect(tokens.allSatisfy { $0.count == 64 && UInt64($0) == nil }, "\(tokens)")
    #expect(Set(tokens).count == 3)

    // The first token still says where the app read: a stream after it hears the app's own
    // calendar's change, and of the person's hidden writes, before and after, nothing.
    let (stream, output, _) = try CLI.start(
      ["-N", "-s", "--unix-socket", served.socket, "http://kalends/v1/changes?after=\(before.position)"],
      program: URL(fileURLWithPath: agenda))
    defer {
      kill(stream.processIdentifier, SIGKILL)
      stream.waitUntilExit()
    }
    let opened = ServerChangeTests.read(output.fileHandleForReading, until: ": open")
    let moreHidden = try Self.add(served, health, "Therapy 4", day: 6)
    let review = try Self.add(served, work, "Review", day: 6)
    let heard = opened + ServerChangeTests.read(output.fileHandleForReading, until: review)
    let notices = try ServerChangeTests.events("changes", in: heard)
    let named = notices.flatMap { ($0.data["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
    #expect(named == [review], "\(heard)")
    for hiddenID in hidden + [moreHidden] { #expect(!heard.contains(hiddenID)) }
    for notice in notices {
      #expect(Set(notice.data.keys) == ["position", "catchUp", "refetchAll", "changes"], "\(notice.data)")
      #expect(notice.id?.count == 64 && notice.id == notice.data["position"] as? String)
    }
  }

  @Test func tagsAndTokensAreEachAppsOwn() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    let planner = try served.app("planner", appending: [0])
    try served.register("com.example.agenda", executable: agenda)
    try served.store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Plans.",
      "--executable", planner,
    ])
    for app in ["com.example.agenda", "com.example.planner"] {
      try served.store.object(["access", "set", app, "--service", "calendars", "--status", "full"])
    }
    let work = try served.store.calendar("Work")
    let standup = try Self.add(served, work, "Standup", day: 2)

    let mine = try served.exchange("GET", "/v1/events/\(standup)", by: agenda)
    let theirs = try served.exchange("GET", "/v1/events/\(standup)", by: planner)
    #expect(mine.status == 200 && theirs.status == 200)
    #expect(mine.etag != theirs.etag, "two apps' tags of one version are unrelated")
    // Another app's tag matches nothing: If-None-Match answers the event, If-Match refuses.
    #expect(
      try served.call("GET", "/v1/events/\(standup)", by: agenda, headers: ["If-None-Match: \(theirs.etag)"])
        .status == 200)
    let head = try served.store.head()
    let refused = try served.call(
      "PATCH", "/v1/events/\(standup)", by: agenda, headers: ["If-Match: \(theirs.etag)"], body: #"{"title":"X"}"#)
    #expect(refused.status == 412)
    let detail = try #require((refused.body as? [String: Any])?["detail"] as? String)
    #expect(detail == "event \(standup) changed since the version named: fetch it again")
    #expect(try served.store.head() == head)

    // A stream takes only the app's own tokens: another app's, a made-up one, a log position: 400.
    let read = try served.exchange("GET", "/v1/calendars", by: planner)
    let madeUp = String(repeating: "A", count: 64)
    for (name, value) in [("after", read.position), ("after", madeUp), ("after", "3")] {
      let answer = try served.call("GET", "/v1/changes?\(name)=\(value)", by: agenda)
      #expect(answer.status == 400, "\(value): \(answer)")
    }
    for value in [read.position, "3"] {
      let answer = try served.call("GET", "/v1/changes", by: agenda, headers: ["Last-Event-ID: \(value)"])
      #expect(answer.status == 400, "\(value): \(answer)")
    }
  }

  /// `body` rendered with sorted keys, to compare two answers.
  static func rendered(_ body: Any?) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: try #require(body), options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}
