import Foundation
import KalendsTestSupport
import Testing

/// CalDAV through real clients: python `caldav` (PyPI) drives the store server as an app with a
/// token, its answers checked against `recurring-ical-events` (Tests/Oracles/dav_client_check.py); curl
/// plays the apps whose access differs, each refused or limited as an API app would be, and
/// recorded.
@Suite("CalDAV clients are apps under the same rules")
struct DAVClientTests {
  /// Tests/Oracles/dav_client_check.py.
  static let script = Repository.root
    .appendingPathComponent("Tests/Oracles/dav_client_check.py").path

  static let propfind = """
    <?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:displayname/><D:getetag/></D:prop></D:propfind>
    """

  @Test func pythonCaldavSyncsTheCalendarItWasGivenAndNothingElse() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let health = try served.store.calendar("Health")
    try served.store.object([
      "event", "add", "--calendar", health, "--title", "Therapy", "--start", "2026-12-03T10:00:00", "--end",
      "2026-12-03T11:00:00",
    ])
    let secret = try served.tokenApp("org.python.caldav", access: ["--status", "full", "--calendars", work])
    let full = try served.tokenApp("org.example.planner", access: ["--status", "full"])
    // With reminders access too, a calendar it makes without a component set takes tasks as well.
    try served.store.object(["access", "set", "org.example.planner", "--service", "reminders", "--status", "full"])

    let result = try CLI.run(
      ["python3", Self.script, base, secret, "Work", "Health", full], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect(summary["windowsCompared"] as? Int == 7)
    #expect(summary["freeBusyCompared"] as? Int == 7)
    // Three instances in the narrow windows; in the wide one the series' five (one moved), the
    // single, the all-day and the floating event.
    #expect(summary["expandedInstancesCompared"] as? Int == 11)
    #expect(summary["saved"] as? Int == 4)
    #expect(summary["syncPaged"] as? Int == 2)
    #expect(summary["calendarMade"] as? Bool == true)
    #expect(summary["principalSearches"] as? Int == 3)
    #expect(summary["floatingZones"] as? Int == 6)
    #expect(summary["recurrenceSetsLimited"] as? Int == 3)
    // The calendar made over DAV is a fact by that app, and so is its removal.
    let made = try served.records("calendarSaved").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.planner"
    }
    // Made, renamed, recoloured, given dead properties, one removed and a calendar-timezone set;
    // then one made by an extended MKCOL; the refused PROPPATCH and MKCOLs wrote nothing.
    #expect(made.count == 7, "made, renamed, recoloured, dead properties, zone, MKCOL: \(made.count)")
    #expect(
      try served.records("calendarRemoved").contains {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.planner"
      })

    // Its writes are facts in the log by the app, identified by its token.
    let saved = try served.records("eventSaved").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.python.caldav"
    }
    #expect(saved.count >= 5, "\(saved.count) saves by the app")
    #expect(saved.allSatisfy { (($0["caller"] as? [String: Any])?["tokenId"] as? String) != nil })
    // The hidden calendar is unreachable by its path too, and the attempt names nothing in it.
    let hidden = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(health)/", token: secret, body: Self.propfind, headers: ["Depth: 1"])
    #expect(hidden.status == 404)
    #expect(!hidden.body.contains("Therapy") && !hidden.body.contains("Health"))
    let report = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(health)/", token: secret,
      body: """
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data/></D:prop>
        <C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>
        """, headers: ["Depth: 1"])
    #expect(report.status == 404)
    #expect(!report.body.contains("Therapy"))
    // Nor does a sync of it tell anything; a sync token from this app is refused for another.
    let sync = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(health)/", token: secret, body: Self.sync(""), headers: ["Depth: 1"])
    #expect(sync.status == 404 && !sync.body.contains(".ics"))
    let mine = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: secret, body: Self.sync(""), headers: ["Depth: 1"])
    let token = try #require(
      mine.body.components(separatedBy: "<D:sync-token>").last?.components(separatedBy: "<").first)
    let other = try served.tokenApp("org.example.other", access: ["--status", "full"])
    let foreign = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: other, body: Self.sync(token), headers: ["Depth: 1"])
    #expect(foreign.status == 403 && foreign.body.contains("valid-sync-token"), "\(foreign.body)")
  }

  /// A `sync-collection` report from `token` (empty: a first sync), asking for ETags.
  static func sync(_ token: String) -> String {
    """
    <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(token)</D:sync-token><D:sync-level>1</D:sync-level>
    <D:prop><D:getetag/></D:prop></D:sync-collection>
    """
  }

  @Test func refusedWriteOnlyAndRevokedAppsGetWhatAnAPIAppWould() throws {
    // A write-only app's read asks the person for full access, as iOS 17 asks: nobody answers here.
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    try served.store.object([
      "event", "add", "--calendar", work, "--title", "Board meeting", "--start", "2026-12-03T10:00:00", "--end",
      "2026-12-03T11:00:00",
    ])

    // No token: 401 with the Basic challenge DAV clients answer, recorded as an unidentified caller.
    let bare = try ServedStore.request("PROPFIND", base + "/dav/calendars/", token: nil, headers: ["Depth: 0"])
    #expect(bare.status == 401)
    #expect(bare.challenge.hasPrefix("Basic realm="))
    // The connection closes after a 401, and the answer says so: clients repeat their request with
    // credentials on a new connection, not on this one (python caldav failed now and then).
    let closing = try CLI.run(
      ["-s", "-o", "/dev/null", "-X", "PROPFIND", "-w", "%header{connection}", base + "/dav/"],
      program: try ServedStore.curl())
    #expect(closing.stdout == "close")
    #expect(!(try served.records("callerUnidentified")).isEmpty)

    // Denied: 403 with DAV:need-privileges, the attempt recorded, nothing of the calendar shown.
    let denied = try served.tokenApp("org.example.denied", access: ["--status", "denied"])
    let refused = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/", token: denied, body: Self.propfind, headers: ["Depth: 1"])
    #expect(refused.status == 403)
    #expect(refused.body.contains("need-privileges") && !refused.body.contains("Work"))
    let put = try ServedStore.request(
      "PUT", base + "/dav/calendars/\(work)/x%40example.com.ics", token: denied,
      body:
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:x@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
        + "DTSTART:20261203T100000Z\r\nDTEND:20261203T110000Z\r\nSUMMARY:Injected\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 403)
    let attempts = try served.records("accessAttemptRefused").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.denied"
    }
    #expect(attempts.count >= 1)

    // Write-only: it may add to the calendar for new events, and reads nothing of what is there.
    let writer = try served.tokenApp("org.example.writer", access: ["--status", "write-only"])
    let listing = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(work)/", token: writer, body: Self.propfind, headers: ["Depth: 1"])
    #expect(listing.status == 207, "\(listing.body)")
    #expect(!listing.body.contains(".ics"), "a write-only app is shown an item: \(listing.body)")
    let added = try ServedStore.request(
      "PUT", base + "/dav/calendars/\(work)/w%40example.com.ics", token: writer,
      body:
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:w@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
        + "DTSTART:20261204T100000Z\r\nDTEND:20261204T110000Z\r\nSUMMARY:Added\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
      headers: ["Content-Type: text/calendar"])
    #expect(added.status == 201, "\(added.body)")
    let query = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: writer,
      body: """
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data/></D:prop>
        <C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>
        """, headers: ["Depth: 1"])
    #expect(query.status == 207)
    #expect(!query.body.contains("Board meeting") && !query.body.contains("Added"))
    let synced = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: writer, body: Self.sync(""), headers: ["Depth: 1"])
    #expect(synced.status == 207 && !synced.body.contains(".ics"), "\(synced.body)")
    let events = try served.store.objects(["events", "--from", "2026-12-01", "--to", "2026-12-08", "--calendar", work])
    #expect(Set(events.compactMap { $0["title"] as? String }) == ["Board meeting", "Added"])

    // Revoked: refused on its next request.
    let full = try served.tokenApp("org.example.full", access: ["--status", "full"])
    let before = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(work)/", token: full, body: Self.propfind, headers: ["Depth: 1"])
    #expect(before.status == 207 && before.body.contains(".ics"))
    try served.store.object(["access", "set", "org.example.full", "--service", "calendars", "--status", "denied"])
    let after = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(work)/", token: full, body: Self.propfind, headers: ["Depth: 1"])
    #expect([401, 403].contains(after.status))
    #expect(!after.body.contains(".ics"))
  }
}
