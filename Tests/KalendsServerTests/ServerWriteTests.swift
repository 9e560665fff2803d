import Foundation
import KalendsTestSupport
import Testing

/// Changing events through the store server: versions as entity tags, `If-Match` refused with 412
/// when the event changed since, refusals for apps without access, and records that say who.
@Suite("The store server writes events with optimistic concurrency")
struct ServerWriteTests {
  @Test func anAppSavesChangesAndRemovesAnEventWithItsVersion() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let calendar = try served.store.calendar("Work")
    let lunch = """
      {"calendarId":"\(calendar)","title":"Lunch","start":"2026-03-03T12:00:00","end":"2026-03-03T13:00:00",
       "timeZone":"Europe/Berlin"}
      """

    // Without access: refused, nothing written but the refusal.
    let refused = try served.call("POST", "/v1/events", by: agenda, body: lunch)
    #expect(refused.status == 403)
    #expect(try served.store.objects(["event", "list"]).isEmpty)
    let history = try served.store.objects(["audit", "history"])
    #expect(history.contains { $0["kind"] as? String == "accessAttemptRefused" })

    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    // The API takes RFC 3339 only: "tomorrow" would be the server's, not the person's.
    let spoken = """
      {"calendarId":"\(calendar)","title":"Lunch","start":"tomorrow 12:00","end":"tomorrow 13:00"}
      """
    let vague = try served.call("POST", "/v1/events", by: agenda, body: spoken)
    #expect(vague.status == 400 && (vague.body as? [String: Any])?["category"] as? String == "invalidInput")
    #expect(try served.store.objects(["event", "list"]).isEmpty)
    let created = try served.exchange("POST", "/v1/events", by: agenda, body: lunch)
    #expect(created.status == 201)
    let event = try #require(created.body as? [String: Any])
    let id = try #require(event["id"] as? String)
    let version = try #require(event["version"] as? String)
    #expect(created.etag == "\"\(version)\"")
    // The tag is the app's view of the version, never the log position the owner sees.
    let stored = try #require(try served.store.object(["event", "show", id])["version"] as? Int)
    #expect(version.count == 22 && version != String(stored), "\(version)")
    #expect(event["title"] as? String == "Lunch")
    #expect(event["timeZone"] as? String == "Europe/Berlin")

    // The record names the app and how the server knew it.
    let saved = try #require(try served.records("eventSaved").last)
    #expect((saved["caller"] as? [String: Any])?["executable"] as? String == agenda)

    // Fetch, and again with the tag: not modified.
    let fetched = try served.exchange("GET", "/v1/events/\(id)", by: agenda)
    #expect(fetched.status == 200)
    #expect(fetched.etag == created.etag)
    let unchanged = try served.exchange(
      "GET", "/v1/events/\(id)", by: agenda, headers: ["If-None-Match: \(created.etag)"])
    #expect(unchanged.status == 304)

    // A change at the fetched version succeeds; a second one at the same, now stale, version is 412.
    let renamed = try served.exchange(
      "PATCH", "/v1/events/\(id)", by: agenda, headers: ["If-Match: \(created.etag)"], body: #"{"title":"Team lunch"}"#)
    #expect(renamed.status == 200)
    #expect((renamed.body as? [String: Any])?["title"] as? String == "Team lunch")
    #expect(renamed.etag != created.etag)
    let head = try served.store.head()
    let stale = try served.call(
      "PATCH", "/v1/events/\(id)", by: agenda, headers: ["If-Match: \(created.etag)"], body: #"{"title":"Brunch"}"#)
    #expect(stale.status == 412)
    #expect((stale.body as? [String: Any])?["category"] as? String == "conflict")
    #expect(try served.store.head() == head, "a refused change writes nothing")

    // Bad input changes nothing either.
    for body in [#"{"title":5}"#, #"{"colour":"red"}"#, #"{"start":"soon"}"#, "not json"] {
      let answer = try served.call("PATCH", "/v1/events/\(id)", by: agenda, body: body)
      #expect(answer.status == 400, "\(body)")
    }
    #expect(try served.store.head() == head)

    let removed = try served.call("DELETE", "/v1/events/\(id)", by: agenda, headers: ["If-Match: \(renamed.etag)"])
    #expect(removed.status == 204)
    #expect(try served.call("GET", "/v1/events/\(id)", by: agenda).status == 404)
  }

  /// What the API gives, it takes back: a fetched event, changed and sent back whole — its
  /// read-only fields, its nulls and its alarms as a read gives them — is saved; a precondition
  /// that is not an entity tag is 400, never a silent 412 or 200.
  @Test func aFetchedEventSentBackWholeIsSavedAndBadPreconditionsAreRefused() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let calendar = try served.store.calendar("Work")
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let body = """
      {"calendarId":"\(calendar)","title":"Lunch","start":"2026-03-03T12:00:00","end":"2026-03-03T13:00:00",
       "timeZone":"Europe/Berlin","alarms":["-15m"]}
      """
    let created = try served.exchange("POST", "/v1/events", by: agenda, body: body)
    #expect(created.status == 201)
    var event = try #require(created.body as? [String: Any])
    let id = try #require(event["id"] as? String)
    #expect((event["alarms"] as? [[String: Any]])?.first?["relativeOffset"] as? Int == -900)
    event["title"] = "Team lunch"
    event["alarms"] = [["relativeOffset": -600], "-1h"]
    let whole = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
    let saved = try served.exchange(
      "PATCH", "/v1/events/\(id)", by: agenda, headers: ["If-Match: \(created.etag)"], body: whole)
    #expect(saved.status == 200, "\(saved.body ?? "")")
    let after = try #require(saved.body as? [String: Any])
    #expect(after["title"] as? String == "Team lunch")
    #expect(
      (after["alarms"] as? [[String: Any]])?.compactMap { $0["relativeOffset"] as? Int }.sorted() == [-3600, -600])
    #expect(after["id"] as? String == id)
    // Every field the read gives is described by the document.
    let document = try #require(try served.get("/v1/openapi.json", by: agenda).body as? [String: Any])
    let schema = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Event"] as? [String: Any]
    let described = Set(((schema?["properties"] as? [String: Any]) ?? [:]).keys)
    #expect(Set(after.keys).isSubset(of: described), "undocumented: \(Set(after.keys).subtracting(described))")

    let head = try served.store.head()
    for header in ["If-Match: 42", "If-Match: W/\"1\"", "If-Match: \"+5\"", "If-Match: \"1\" \"2\""] {
      let answer = try served.call("PATCH", "/v1/events/\(id)", by: agenda, headers: [header], body: #"{"title":"X"}"#)
      #expect(answer.status == 400, "\(header)")
    }
    for header in ["If-None-Match: 42", "If-None-Match: W/x"] {
      #expect(try served.call("GET", "/v1/events/\(id)", by: agenda, headers: [header]).status == 400, "\(header)")
    }
    #expect(try served.call("GET", "/v1/events/\(id)", by: agenda, headers: ["If-None-Match: *"]).status == 304)
    #expect(try served.store.head() == head, "refused preconditions write nothing")
  }

  @Test func aWriteOnlyAppAddsButReadsNothing() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.store.object([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--usage", "calendars-write-only=Adds bookings.",
      "--executable", agenda,
    ])
    let calendar = try served.store.calendar("Work")
    try served.store.object([
      "access", "set", "com.example.agenda", "--service", "calendars", "--status", "write-only",
    ])
    let created = try served.call(
      "POST", "/v1/events", by: agenda,
      body: #"{"calendarId":"\#(calendar)","title":"Booked","start":"2026-03-04","allDay":true}"#)
    #expect(created.status == 201)
    let id = try #require((created.body as? [String: Any])?["id"] as? String)
    #expect(try served.call("GET", "/v1/events/\(id)", by: agenda).status == 403)
    // As EventKit gives a write-only app: no events, and no error.
    let week = try served.call("GET", "/v1/events?from=2026-03-01&to=2026-03-31", by: agenda)
    #expect(week.status == 200)
    #expect((week.body as? [Any])?.isEmpty == true)
  }
}
