import Foundation
import Kalends
import KalendsCommandSupport
import KalendsServer

/// The demo's calendar program over CalDAV: an app registered as Thunderbird and identified by a
/// token of its own over TCP, as a real Thunderbird would be (docs/dav.md). Its first look at the
/// calendars asks the person, who gives it the Work calendar only; it then sees that calendar alone,
/// reads a week of it with a time-range REPORT, and stores an event with PUT — each a fact by the
/// app, identified by its token, in the audit printed after.
struct DemoDAVApp {
  static let id = "org.mozilla.thunderbird"

  let owner: EventStore
  let socket: String
  /// The server's TCP port on 127.0.0.1.
  let port: Int

  func play(work: EventCalendar) throws {
    try owner.register(
      Kalends.Client(id: Self.id, name: "Thunderbird", usageDescriptions: [.calendarsFull: "Your calendars."]))
    let (token, secret) = try owner.privacySettings().createToken(for: Self.id, label: "demo")
    let authorization = "Basic " + Data("thunderbird:\(secret)".utf8).base64EncodedString()
    let port = self.port
    func request(_ method: String, _ path: String, _ body: String = "", _ headers: [String] = []) throws
      -> UnixHTTPClient.Response
    {
      try Self.exchange(method, path, port: port, headers: ["Authorization: \(authorization)"] + headers, body: body)
    }

    // The first PROPFIND of the calendar home waits for the person's answer.
    let listing = Self.Box()
    let home = Thread {
      listing.result = Result {
        try Self.exchange(
          "PROPFIND", "/dav/calendars/", port: port, headers: ["Authorization: \(authorization)", "Depth: 1"],
          body: "<D:propfind xmlns:D=\"DAV:\"><D:prop><D:displayname/></D:prop></D:propfind>")
      }
    }
    home.start()
    let prompt: [String: Any]
    do {
      prompt = try DemoServedApps.waitForPrompt(socket)
    } catch {
      let answer = (try? listing.result?.get()).map { "\($0.status) \($0.body)" } ?? "no answer"
      throw CLIError(message: "Thunderbird's request was not asked of the person: \(answer)", status: .storage)
    }
    if let id = prompt["id"] as? Int {
      _ = try UnixHTTPClient.request("POST", "/v1/prompts/\(id)?answer=allow&calendar=\(work.id)", socket: socket)
    }
    while listing.result == nil { Thread.sleep(forTimeInterval: 0.02) }
    let names = Self.texts(of: "D:displayname", in: try listing.result!.get().body)
    print(
      "  Thunderbird (CalDAV over TCP, token \(token.id)) asks for calendars; the person gives it Work only "
        + "(kalends prompts answer ID allow --calendars …): it sees \(names.dropFirst().joined(separator: ", "))")

    let calendar = "/dav/calendars/\(work.id)/"
    let week = try request(
      "REPORT", calendar,
      """
      <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>
      <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
      <C:time-range start="20260330T000000Z" end="20260406T000000Z"/></C:comp-filter></C:comp-filter></C:filter>
      </C:calendar-query>
      """, ["Depth: 1", "Content-Type: application/xml"])
    print("    REPORT of the week of 30 March: \(Self.texts(of: "D:href", in: week.body).count) events")
    let event = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
      BEGIN:VEVENT\r
      UID:demo-planning@thunderbird.example\r
      DTSTAMP:20260327T090000Z\r
      DTSTART;TZID=Europe/Berlin:20260402T150000\r
      DTEND;TZID=Europe/Berlin:20260402T160000\r
      SUMMARY:Planning (from Thunderbird)\r
      X-MOZ-GENERATION:1\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let stored = try request(
      "PUT", calendar + "0f4e2c9a-demo.ics", event, ["Content-Type: text/calendar", "If-None-Match: *"])
    print(
      "    PUT of an event under a name of its own: \(stored.status), an eventSaved fact by org.mozilla.thunderbird")
    let hidden = try request("PROPFIND", "/dav/calendars/", "", ["Depth: 1"])
    let others = (try owner.calendars()).filter { $0.id != work.id && hidden.body.contains($0.id.description) }
    print("    the other calendars stay out of its sight: \(others.isEmpty ? "none listed" : "LISTED: \(others)")")
  }

  /// A result filled in by another thread.
  final class Box: @unchecked Sendable {
    var result: Result<UnixHTTPClient.Response, any Error>?
  }

  /// The texts of the elements `tag` in `xml`.
  static func texts(of tag: String, in xml: String) -> [String] {
    xml.components(separatedBy: "<\(tag)>").dropFirst().compactMap { $0.components(separatedBy: "</\(tag)>").first }
  }

  /// One HTTP/1.1 exchange with the server on 127.0.0.1:`port`, `Connection: close`.
  static func exchange(
    _ method: String, _ path: String, port: Int, headers: [String], body: String
  ) throws -> UnixHTTPClient.Response {
    let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw CLIError(message: "no socket for the demo's DAV app", status: .storage) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      throw CLIError(message: "the demo's DAV app cannot reach 127.0.0.1:\(port)", status: .storage)
    }
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for header in headers { text += header + "\r\n" }
    text += "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    return try UnixHTTPClient.exchange(text, on: descriptor)
  }
}
