import Foundation
import KalendsTestSupport
import Testing

/// Reminders and calendars through the store server, as an EventKit app uses them: refused and
/// recorded without access, on every route; with it, reminders fetched as EventKit's predicates
/// fetch them, saved with versions as entity tags, a repeating one completed an occurrence at a
/// time; calendars created, renamed, recoloured and removed with full access only.
@Suite("The store server serves reminders and calendars")
struct ServerReminderTests {
  static let planner = "com.example.planner"

  static func registered(_ served: ServedStore) throws -> String {
    let app = try served.app("planner")
    try served.store.object([
      "client", "register", planner, "--name", "Planner", "--usage", "calendars-full=Plans.", "--usage",
      "reminders-full=Lists tasks.", "--executable", app,
    ])
    return app
  }

  /// The app's refused calls of the last week, logged and still counted (refusals are coalesced
  /// per minute: docs/log-format.md).
  static func refused(_ served: ServedStore) throws -> Int {
    try served.store.objects(["audit", "apps"]).filter { $0["client"] as? String == planner }.reduce(0) {
      $0 + ($1["refusals7d"] as? Int ?? 0)
    }
  }

  @Test func aRefusedAppGetsNothingOnEveryReminderRouteAndEachRefusalIsRecorded() throws {
    let served = try ServedStore()
    let app = try Self.registered(served)
    let list = try served.store.calendar("Errands", ["--reminders"])
    let milk = try #require(
      try served.store.object(["reminder", "add", "--calendar", list, "--title", "Buy milk", "--due", "2026-03-02"])[
        "id"] as? String)
    try served.store.object(["access", "set", Self.planner, "--service", "reminders", "--status", "denied"])
    let writes = { try ["reminderSaved", "reminderRemoved", "calendarSaved"].map { try served.records($0).count } }
    let written = try writes()
    let before = try Self.refused(served)
    let calls: [(String, String, String?)] = [
      ("GET", "/v1/reminders", nil), ("GET", "/v1/reminders?status=completed", nil),
      ("GET", "/v1/calendars?for=reminders", nil),
      ("POST", "/v1/reminders", #"{"calendarId":"\#(list)","title":"Post a letter"}"#),
      ("GET", "/v1/reminders/\(milk)", nil), ("PATCH", "/v1/reminders/\(milk)", #"{"completed":true}"#),
      ("DELETE", "/v1/reminders/\(milk)", nil),
      ("POST", "/v1/calendars", #"{"title":"Chores","allowedEntityTypes":["reminders"]}"#),
    ]
    for (method, path, body) in calls {
      let answer = try served.call(method, path, by: app, body: body)
      #expect(answer.status == 403, "\(method) \(path): \(answer.body ?? "")")
      #expect(answer.body.map { "\($0)" }?.contains("Buy milk") != true)
    }
    #expect(try Self.refused(served) == before + calls.count, "each refusal recorded once")
    #expect(try served.store.objects(["reminder", "list"]).map { $0["title"] as? String } == ["Buy milk"])
    #expect(try writes() == written, "nothing written but the refusals")
  }

  @Test func anAppFetchesSavesCompletesAndRemovesRemindersWithTheirVersions() throws {
    let served = try ServedStore()
    let app = try Self.registered(served)
    let list = try served.store.calendar("Errands", ["--reminders"])
    try served.store.object(["access", "set", Self.planner, "--service", "reminders", "--status", "full"])
    let lists = try served.call("GET", "/v1/calendars?for=reminders", by: app)
    #expect((lists.body as? [[String: Any]])?.map { $0["title"] as? String } == ["Errands"])

    // A monthly reminder due on a date, and one due at a time in a zone.
    let rent = try served.exchange(
      "POST", "/v1/reminders", by: app,
      body: #"{"calendarId":"\#(list)","title":"Pay rent","dueDate":"2026-03-01","recurrenceRules":["FREQ=MONTHLY"]}"#)
    #expect(rent.status == 201, "\(rent.body ?? "")")
    let rentID = try #require((rent.body as? [String: Any])?["id"] as? String)
    let call = try served.exchange(
      "POST", "/v1/reminders", by: app,
      body:
        #"{"calendarId":"\#(list)","title":"Call mum","dueDate":"2026-03-05T18:00:00","timeZone":"Europe/Berlin","priority":1}"#
    )
    #expect(call.status == 201)
    let callID = try #require((call.body as? [String: Any])?["id"] as? String)
    #expect((call.body as? [String: Any])?["dueDate"] as? String == "2026-03-05T18:00:00+01:00")
    let saved = try #require(try served.records("reminderSaved").last)
    #expect((saved["caller"] as? [String: Any])?["executable"] as? String == app, "the record names the app")

    // Due in the first week of March, in Berlin: both; from the 2nd: the call only.
    func due(_ query: String) throws -> [String] {
      try #require(served.call("GET", "/v1/reminders?" + query, by: app).body as? [[String: Any]]).compactMap {
        $0["title"] as? String
      }
    }
    #expect(try due("from=2026-03-01&to=2026-03-08&tz=Europe/Berlin") == ["Pay rent", "Call mum"])
    #expect(try due("from=2026-03-02&to=2026-03-08&tz=Europe/Berlin") == ["Call mum"])
    #expect(try served.call("GET", "/v1/reminders?from=2026-03-02", by: app).status == 400)
    #expect(try served.call("GET", "/v1/reminders?status=done", by: app).status == 400)

    // Versions as entity tags: 304 for the same, 412 for a stale one, writing nothing.
    #expect(
      try served.call("GET", "/v1/reminders/\(callID)", by: app, headers: ["If-None-Match: \(call.etag)"]).status
        == 304)
    let moved = try served.exchange(
      "PATCH", "/v1/reminders/\(callID)", by: app, headers: ["If-Match: \(call.etag)"],
      body: #"{"dueDate":"2026-03-06T19:00:00","notes":"Ask about Easter"}"#)
    #expect(moved.status == 200, "\(moved.body ?? "")")
    #expect((moved.body as? [String: Any])?["dueDate"] as? String == "2026-03-06T19:00:00+01:00")
    let head = try served.store.head()
    let stale = try served.call(
      "PATCH", "/v1/reminders/\(callID)", by: app, headers: ["If-Match: \(call.etag)"], body: #"{"title":"X"}"#)
    #expect(stale.status == 412)
    for body in [#"{"priority":12}"#, #"{"completed":"yes"}"#, #"{"dueDate":"tomorrow"}"#, #"{"colour":1}"#] {
      #expect(try served.call("PATCH", "/v1/reminders/\(callID)", by: app, body: body).status == 400, "\(body)")
    }
    #expect(try served.store.head() == head, "refused changes write nothing")

    // Completing the monthly reminder completes March and moves the series to April.
    let completed = try served.exchange(
      "PATCH", "/v1/reminders/\(rentID)", by: app, headers: ["If-Match: \(rent.etag)"], body: #"{"completed":true}"#)
    #expect(completed.status == 200, "\(completed.body ?? "")")
    let series = try #require(completed.body as? [String: Any])
    #expect(series["id"] as? String == rentID && series["completed"] as? Bool == false)
    #expect(series["dueDate"] as? String == "2026-04-01")
    let done = try #require(served.call("GET", "/v1/reminders?status=completed", by: app).body as? [[String: Any]])
    #expect(done.map { "\($0["title"] ?? "")/\($0["dueDate"] ?? "")" } == ["Pay rent/2026-03-01"])
    #expect(
      try served.call("PATCH", "/v1/reminders/\(rentID)", by: app, body: #"{"completed":true,"title":"Rent"}"#).status
        == 400, "completing a repeating reminder goes alone")

    #expect(
      try served.call("DELETE", "/v1/reminders/\(callID)", by: app, headers: ["If-Match: \(moved.etag)"]).status
        == 204)
    #expect(try served.call("GET", "/v1/reminders/\(callID)", by: app).status == 404)
  }

  @Test func anAppWithFullAccessManagesCalendarsAndOthersAreRefused() throws {
    let served = try ServedStore()
    let app = try Self.registered(served)
    let work = try served.store.calendar("Work")

    // Write-only access adds events, never calendars; the refusal is recorded.
    try served.store.object(["access", "set", Self.planner, "--service", "calendars", "--status", "write-only"])
    let refusals = try Self.refused(served)
    let writeOnly = try served.call("POST", "/v1/calendars", by: app, body: #"{"title":"Trips"}"#)
    #expect(writeOnly.status == 403)
    let mine = try served.call("PATCH", "/v1/calendars/\(work)", by: app, body: #"{"title":"Mine"}"#)
    #expect(mine.status == 403, "write-only changes no calendar: \(mine.body ?? "")")
    #expect(try Self.refused(served) == refusals + 2)
    #expect(try served.store.objects(["calendar", "list"]).map { $0["title"] as? String } == ["Work"])

    try served.store.object(["access", "set", Self.planner, "--service", "calendars", "--status", "full"])
    let created = try served.exchange(
      "POST", "/v1/calendars", by: app, body: ##"{"title":"Trips","color":"#ff9500"}"##)
    #expect(created.status == 201, "\(created.body ?? "")")
    let trips = try #require(created.body as? [String: Any])
    let id = try #require(trips["id"] as? String)
    #expect(trips["color"] as? String == "#FF9500" && trips["allowedEntityTypes"] as? [String] == ["events"])
    #expect((trips["source"] as? [String: Any])?["kind"] as? String == "local")
    let renamed = try served.exchange(
      "PATCH", "/v1/calendars/\(id)", by: app, headers: ["If-Match: \(created.etag)"],
      body: ##"{"title":"Travel","color":"#34C759"}"##)
    #expect(renamed.status == 200)
    #expect((renamed.body as? [String: Any])?["title"] as? String == "Travel")
    let head = try served.store.head()
    #expect(
      try served.call("PATCH", "/v1/calendars/\(id)", by: app, headers: ["If-Match: \(created.etag)"], body: "{}")
        .status == 412)
    #expect(try served.call("PATCH", "/v1/calendars/\(id)", by: app, body: #"{"color":"red"}"#).status == 400)
    let types = try served.call("PATCH", "/v1/calendars/\(id)", by: app, body: #"{"allowedEntityTypes":["reminders"]}"#)
    #expect(types.status == 400, "\(types.status) \(types.body ?? "")")
    #expect(try served.store.head() == head)
    let sources = try #require(served.call("GET", "/v1/sources", by: app).body as? [[String: Any]])
    #expect(sources.map { $0["title"] as? String } == ["On My Computer"])

    // Limited to chosen calendars: the ones it made and was given, not the others.
    try served.store.object([
      "access", "set", Self.planner, "--service", "calendars", "--status", "full", "--calendars", id,
    ])
    #expect(try served.call("DELETE", "/v1/calendars/\(work)", by: app).status == 404, "not given: not seen")
    let titles = try #require(served.call("GET", "/v1/calendars", by: app).body as? [[String: Any]])
    #expect(titles.map { $0["title"] as? String } == ["Travel"])
    #expect(
      try served.call("DELETE", "/v1/calendars/\(id)", by: app, headers: ["If-Match: \(renamed.etag)"]).status == 204)
    #expect(try served.store.objects(["calendar", "list"]).map { $0["title"] as? String } == ["Work"])
  }
}
