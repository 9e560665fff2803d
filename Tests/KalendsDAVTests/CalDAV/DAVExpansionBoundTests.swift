import Foundation
import KalendsTestSupport
import Testing

/// A CalDAV `expand` is bounded by what it writes, not only by how many instances: a few days of
/// one large event are refused before they are built, as a century of a small one is.
@Suite("DAV: an expansion is bounded by its size")
struct DAVExpansionBoundTests {
  @Test func anExpansionOfALargeEventIsRefusedBeforeItIsBuilt() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let token = try served.tokenApp("org.example.large", access: ["--status", "full"])
    // A daily event with a 600 KB description: within the 1 MiB a resource may hold.
    let line = String(repeating: "0123456789", count: 6)
    let folded = "DESCRIPTION:" + line + String(repeating: "\r\n " + line, count: 9_999)
    let event = """
      BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:large@example.com\r\nDTSTAMP:20260101T000000Z\r
      DTSTART:20260101T090000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY\r\nSUMMARY:Large\r\n\(folded)\r\nEND:VEVENT\r
      END:VCALENDAR\r\n
      """
    // Sent from a file: too long for an argument (curl reads `@FILE`).
    let file = served.store.directory.path + "/large.ics"
    try event.write(toFile: file, atomically: true, encoding: .utf8)
    let put = try ServedStore.request(
      "PUT", base + "/dav/calendars/\(work)/large.ics", token: token, body: "@" + file,
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put.body)")
    func query(days: Int) -> String {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
      let end = formatter.string(from: Date(timeIntervalSince1970: 1_767_225_600 + Double(days) * 86_400))
      return """
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data>
        <C:expand start="20260101T000000Z" end="\(end)"/></C:calendar-data></D:prop><C:filter>
        <C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range start="20260101T000000Z"
        end="\(end)"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>
        """
    }
    func expand(days: Int) throws -> (status: Int, body: String) {
      let reply = try ServedStore.request(
        "REPORT", base + "/dav/calendars/\(work)/", token: token, body: query(days: days), headers: ["Depth: 1"])
      return (reply.status, reply.body)
    }
    let small = try expand(days: 5)
    #expect(small.status == 207 && small.body.components(separatedBy: "BEGIN:VEVENT").count - 1 == 5)
    // An expansion is streamed, an object at a time: no length announced before it is built.
    let headers = try CLI.run(
      [
        "-s", "-D", "-", "-o", "/dev/null", "-X", "REPORT", "-u", "calendar-app:\(token)", "-H", "Depth: 1",
        "--data-binary", query(days: 5), base + "/dav/calendars/\(work)/",
      ], program: try ServedStore.curl())
    #expect(headers.stdout.lowercased().contains("transfer-encoding: chunked"), "\(headers.stdout)")
    // 60 instances of 600 KB are 36 MB: refused, with the precondition, before any is built.
    let large = try expand(days: 60)
    #expect(large.status == 403 && large.body.contains("number-of-matches-within-limits"), "\(large.status)")
    #expect(large.body.utf8.count < 4096, "the refusal carries no calendar data")
  }
}
