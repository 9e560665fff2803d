import Foundation
import KalendsTestSupport
import Testing

/// The birthdays calendar through the store server: an app reads it as events, and sees the
/// birthday of a contact only when it may see that contact.
@Suite("The store server serves the birthdays calendar as the app's contacts access allows")
struct ServerBirthdaysTests {
  @Test func anAppSeesTheBirthdaysOfTheContactsItMaySeeAndWritesNothingThere() throws {
    let served = try ServedStore()
    let planner = try served.app("planner")
    try served.store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars=Your agenda.",
      "--usage", "contacts=Who is invited.", "--executable", planner,
    ])
    let calendar = try served.store.object(["calendar", "create", "Birthdays", "--birthdays"])
    #expect((calendar["source"] as? [String: Any])?["kind"] as? String == "birthdays")
    #expect(calendar["allowsContentModifications"] as? Bool == false)
    var ids: [String: String] = [:]
    for (name, birthday) in [("Ann", "1990-12-17"), ("Bob", "--12-02")] {
      ids[name] = try #require(
        try served.store.object(["contact", "add", "--given", name, "--birthday", birthday])["id"] as? String)
    }
    try served.store.object(["contact", "update", ids["Bob"]!, "--anniversary", "2015-12-20"])
    try served.store.object([
      "access", "set", "com.example.planner", "--service", "calendars", "--status", "full",
    ])
    let december = "/v1/events?from=2026-12-01&to=2027-01-01&tz=Europe/Berlin"
    func titles() throws -> [String] {
      let answer = try served.get(december, by: planner)
      #expect(answer.status == 200)
      return ((answer.body as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
    }

    // No access to contacts: no birthdays.
    #expect(try titles().isEmpty)
    // Limited to Ann: hers, with the contact it names.
    try served.store.object([
      "access", "set", "com.example.planner", "--service", "contacts", "--status", "limited", "--contacts",
      ids["Ann"]!,
    ])
    let limited = try served.get(december, by: planner)
    let events = (limited.body as? [[String: Any]]) ?? []
    #expect(events.compactMap { $0["title"] as? String } == ["Ann's Birthday"])
    #expect(events.first?["birthdayContactId"] as? String == ids["Ann"])
    #expect(events.first?["instanceStart"] as? String == "2026-12-17")
    // Bob's birthday by its identifier: not there for this app.
    let everyone = try served.store.objects(["events", "--from", "2026-12-01", "--to", "2027-01-01"])
    #expect(
      everyone.compactMap { $0["title"] as? String } == ["Bob's Birthday", "Ann's Birthday", "Bob's Anniversary"])
    let bob = try #require(everyone.first?["id"] as? String)
    #expect(try served.call("GET", "/v1/events/\(bob)", by: planner).status == 404)
    let ann = try #require(events.first?["id"] as? String)
    #expect(try served.call("GET", "/v1/events/\(ann)", by: planner).status == 200)

    // Full access to contacts: every one.
    try served.store.object(["access", "set", "com.example.planner", "--service", "contacts", "--status", "full"])
    #expect(try titles() == ["Bob's Birthday", "Ann's Birthday", "Bob's Anniversary"])

    // It writes nothing there: refused as a read-only calendar, and recorded.
    let id = try #require(calendar["id"] as? String)
    let added = try served.call(
      "POST", "/v1/events", by: planner,
      body: #"{"calendarId":"\#(id)","title":"Party","start":"2026-12-17T18:00:00Z","end":"2026-12-17T20:00:00Z"}"#)
    #expect(added.status == 403, "\(added.body ?? "")")
    #expect(try served.call("DELETE", "/v1/calendars/\(id)", by: planner).status == 403)
    let refusals = try served.store.objects(["audit", "history"]).filter {
      $0["kind"] as? String == "accessAttemptRefused"
    }
    #expect(!refusals.isEmpty, "the refusals are recorded")
    #expect(try served.store.objects(["calendar", "list"]).count == 1)
  }
}
