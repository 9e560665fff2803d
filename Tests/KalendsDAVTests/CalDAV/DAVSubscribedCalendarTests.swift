import Foundation
import KalendsTestSupport
import Testing

/// A subscribed calendar over CalDAV: a program reads it as any calendar it was given, is told it
/// may not write (its privileges), is refused when it tries (recorded), and never learns the feed.
@Suite("DAV: a subscribed calendar")
struct DAVSubscribedCalendarTests {
  static let feed = """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Feed//EN\r\nBEGIN:VEVENT\r\nUID:term@school.example\r
    DTSTAMP:20261129T100000Z\r\nDTSTART;VALUE=DATE:20270111\r\nSUMMARY:Term starts\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
    """

  @Test func aProgramReadsItIsToldItIsReadOnlyAndIsRefusedWhenItWrites() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let path = served.store.directory.path + "/school-secret-feed.ics"
    try Self.feed.write(toFile: path, atomically: true, encoding: .utf8)
    let school = try #require(try served.store.object(["subscribe", "file://" + path])["id"] as? String)
    let token = try served.tokenApp("org.example.davx5", access: ["--status", "full"])
    let calendar = base + "/dav/calendars/\(school)/"

    let props = try ServedStore.request(
      "PROPFIND", calendar, token: token,
      body:
        #"<D:propfind xmlns:D="DAV:"><D:prop><D:current-user-privilege-set/><D:displayname/></D:prop></D:propfind>"#,
      headers: ["Depth: 0"])
    #expect(props.status == 207 && props.body.contains("<D:read/>"), "\(props.body)")
    #expect(!props.body.contains("<D:write/>") && !props.body.contains("<D:bind/>"), "\(props.body)")
    let query = try ServedStore.request(
      "REPORT", calendar, token: token, body: DAVMixedCalendarTests.query, headers: ["Depth: 1"])
    #expect(query.status == 207 && query.body.contains("Term starts"), "\(query.body)")

    let head = try served.store.head()
    let put = try ServedStore.request(
      "PUT", calendar + "mine.ics", token: token, body: DAVNameTests.event("mine@example.com", "Mine"),
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 403, "\(put.status) \(put.body)")
    let refusals = try served.records("accessAttemptRefused").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.davx5"
    }
    #expect(refusals.count == 1, "\(refusals)")
    #expect(try served.store.head() != head, "the refusal is a record")
    #expect(!(try served.store.run(["event", "list", "--calendar", school]).stdout.contains("Mine")))
    // No answer names the feed.
    for answer in [props.body, query.body, put.body] { #expect(!answer.contains("school-secret-feed")) }
  }

  /// The birthdays calendar is the library's and the store server's: the calendar home does not
  /// list it and its id is no collection, so no program sees an empty calendar where birthdays are.
  @Test func theBirthdaysCalendarIsNotAmongTheCollections() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let birthdays = try #require(
      try served.store.object(["calendar", "create", "Birthdays", "--birthdays"])["id"] as? String)
    try served.store.object(["calendar", "create", "Work"])
    try served.store.object(["contact", "add", "--given", "Ann", "--birthday", "1990-12-17"])
    let token = try served.tokenApp("org.example.davx5", access: ["--status", "full"])
    let home = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/", token: token, body: DAVNameTests.listing, headers: ["Depth: 1"])
    #expect(home.status == 207 && home.body.contains("Work"), "\(home.body)")
    #expect(!home.body.contains("Birthdays") && !home.body.lowercased().contains(birthdays.lowercased()))
    let collection = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(birthdays)/", token: token, body: DAVNameTests.listing,
      headers: ["Depth: 1"])
    #expect(collection.status == 404, "\(collection.status) \(collection.body)")
  }
}
