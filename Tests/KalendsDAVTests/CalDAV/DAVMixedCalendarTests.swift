import Foundation
import KalendsTestSupport
import Testing

/// A calendar that holds events and tasks (a Google export with a few `VTODO`s) is open to a
/// calendars-only program for its events, and to a reminders-only one for its tasks; the first
/// write of the other kind asks the person for that service.
@Suite("DAV: a calendar of events and tasks")
struct DAVMixedCalendarTests {
  static let task = """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VTODO\r\nUID:TASK_UID\r\nDTSTAMP:20260101T000000Z\r
    SUMMARY:TASK_SUMMARY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
    """

  static let query = """
    <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data/></D:prop>
    <C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>
    """

  @Test func aCalendarsOnlyProgramSeesTheEventsAndAsksOnItsFirstTask() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "20"])
    let base = "http://" + (try #require(served.tcpAddress))
    let mixed = try served.store.calendar("Google", ["--events-and-reminders"])
    let owner = try served.tokenApp("org.example.owner", access: ["--status", "full"])
    try served.store.object(["access", "set", "org.example.owner", "--service", "reminders", "--status", "full"])
    let calendar = base + "/dav/calendars/\(mixed)/"
    let event = try ServedStore.request(
      "PUT", calendar + "standup.ics", token: owner, body: DAVNameTests.event("standup@example.com", "Standup"),
      headers: ["Content-Type: text/calendar"])
    let task = try ServedStore.request(
      "PUT", calendar + "taxes.ics", token: owner,
      body: Self.task.replacingOccurrences(of: "TASK_UID", with: "taxes@example.com")
        .replacingOccurrences(of: "TASK_SUMMARY", with: "Taxes"), headers: ["Content-Type: text/calendar"])
    #expect(event.status == 201 && task.status == 201, "\(event.body) \(task.body)")

    // A calendars-only program (vdirsyncer given calendars access) reads the events, never the task.
    try served.store.object([
      "client", "register", "org.example.vdirsyncer", "--name", "vdirsyncer", "--usage", "calendars-full=Syncs.",
      "--usage", "reminders-full=Syncs tasks.",
    ])
    try served.store.object(["access", "set", "org.example.vdirsyncer", "--service", "calendars", "--status", "full"])
    let made = try served.store.object(["client", "token", "create", "org.example.vdirsyncer", "--label", "dav"])
    let vdirsyncer = try #require(made["secret"] as? String)
    let refusals = try served.records("accessAttemptRefused").count
    let listing = try ServedStore.request(
      "PROPFIND", calendar, token: vdirsyncer, body: DAVNameTests.listing, headers: ["Depth: 1"])
    #expect(listing.status == 207 && listing.body.contains("standup.ics"), "\(listing.status) \(listing.body)")
    #expect(!listing.body.contains("taxes.ics"), "\(listing.body)")
    let queried = try ServedStore.request(
      "REPORT", calendar, token: vdirsyncer, body: Self.query, headers: ["Depth: 1"])
    #expect(queried.status == 207 && queried.body.contains("Standup") && !queried.body.contains("Taxes"))
    let synced = try ServedStore.request(
      "REPORT", calendar, token: vdirsyncer, body: CardDAVTests.sync(""), headers: ["Depth: 1"])
    #expect(synced.status == 207 && synced.body.contains("standup.ics") && !synced.body.contains("taxes"))
    #expect(try served.prompts().isEmpty, "reading the events asks nothing")
    #expect(try served.records("accessAttemptRefused").count == refusals, "reading the events is refused nothing")

    // Its first task asks the person for reminders access; allowed, the task is stored and listed.
    let put = Process()
    put.executableURL = try ServedStore.curl()
    put.arguments = [
      "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "x:\(vdirsyncer)", "-X", "PUT", "-H",
      "Content-Type: text/calendar", "--data-binary",
      Self.task.replacingOccurrences(of: "TASK_UID", with: "milk@example.com")
        .replacingOccurrences(of: "TASK_SUMMARY", with: "Milk"),
      calendar + "milk.ics",
    ]
    let output = Pipe()
    put.standardOutput = output
    try put.run()
    let prompt = try #require(try served.waitForPrompts(1).first)
    #expect(prompt["client"] as? String == "org.example.vdirsyncer" && prompt["service"] as? String == "reminders")
    let id = try #require(prompt["id"] as? Int)
    let answered = try served.store.run(["prompts", "answer", String(id), "allow", "--socket", served.socket])
    #expect(answered.status == 0, "\(answered.stderr)")
    put.waitUntilExit()
    #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "201")
    let after = try ServedStore.request(
      "PROPFIND", calendar, token: vdirsyncer, body: DAVNameTests.listing, headers: ["Depth: 1"])
    #expect(after.body.contains("taxes.ics") && after.body.contains("milk.ics"), "\(after.body)")
  }
}
