import Foundation
import KalendsTestSupport
import Testing

/// A report's `calendar-data` is the object as it stands: the same bytes as a GET while it is
/// unchanged (its `DTSTAMP` its last change, not the time of the request), the new text as soon as
/// it changes, whatever the server kept of earlier reports.
@Suite("The text of calendar objects")
struct DAVObjectTextTests {
  static func event(_ summary: String) -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:text@example.com\r\n"
      + "DTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Paris:20261203T100000\r\n"
      + "DTEND;TZID=Europe/Paris:20261203T110000\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:\(summary) & co\r\n"
      + "END:VEVENT\r\nEND:VCALENDAR\r\n"
  }

  static let query = """
    <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/>
    </D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range
    start="20261201T000000Z" end="20261231T000000Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>
    """

  /// The calendar-data of the one object a report answered, unescaped.
  static func calendarData(_ body: String) throws -> String {
    let start = try #require(body.range(of: "<C:calendar-data>"), "\(body)")
    let end = try #require(body.range(of: "</C:calendar-data>"), "\(body)")
    return String(body[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&amp;", with: "&")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#13;", with: "\r")
  }

  @Test func aReportServesTheObjectAsItStandsAndAGetTheSameBytes() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let token = try served.tokenApp("org.example.text", access: ["--status", "full"])
    let object = base + "/dav/calendars/\(work)/text%40example.com.ics"
    let put = try ServedStore.request(
      "PUT", object, token: token, body: Self.event("First"), headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put.body)")
    let first = try ServedStore.request("GET", object, token: token)
    Thread.sleep(forTimeInterval: 1.1)  // a DTSTAMP of the request's time would now differ
    let again = try ServedStore.request("GET", object, token: token)
    #expect(first.body == again.body, "an unchanged object's text changed between two GETs")
    let reports = try (0..<2).map { _ in
      try ServedStore.request(
        "REPORT", base + "/dav/calendars/\(work)/", token: token, body: Self.query,
        headers: ["Depth: 1"])
    }
    #expect(reports[0].body == reports[1].body)
    let served1 = try Self.calendarData(reports[1].body)
    #expect(served1.contains("SUMMARY:First & co") && served1.contains("BEGIN:VTIMEZONE"), "\(served1)")
    #expect(
      served1.replacingOccurrences(of: "\r\n", with: "\n") == first.body.replacingOccurrences(of: "\r\n", with: "\n"))

    // Changed: the next report has the new text, never the one kept.
    let changed = try ServedStore.request(
      "PUT", object, token: token, body: Self.event("Second"), headers: ["Content-Type: text/calendar"])
    #expect(changed.status == 204)
    let after = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: token, body: Self.query, headers: ["Depth: 1"])
    let served2 = try Self.calendarData(after.body)
    #expect(served2.contains("SUMMARY:Second & co") && !served2.contains("First"), "\(served2)")
    #expect(after.body != reports[1].body)
  }
}
