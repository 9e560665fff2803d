import Foundation
import KalendsTestSupport
import Testing

/// What apps read through the store server is recorded: the first read of a minute before its
/// answer leaves (a SIGKILL right after it leaves the record), every read counted once the server
/// stops, through the API and CalDAV alike; a refused read is a refusal and no use.
@Suite("The store server records what apps read")
struct ServerAccessUseTests {
  static let agenda = "com.example.agenda"
  static let week = "/v1/events?from=2026-12-01&to=2026-12-08"

  /// A served store with a Health calendar holding one event, and the agenda app (a copy of curl,
  /// identified by its executable) with full access to calendars; the app's program.
  static func served() throws -> (ServedStore, String, health: String) {
    let served = try ServedStore()
    let program = try served.app("agenda")
    try served.register(Self.agenda, executable: program)
    try served.store.object(["access", "set", Self.agenda, "--service", "calendars", "--status", "full"])
    let health = try served.store.calendar("Health")
    try served.store.object([
      "event", "add", "--calendar", health, "--title", "Therapy", "--start", "2026-12-03T10:00:00", "--end",
      "2026-12-03T11:00:00",
    ])
    return (served, program, health)
  }

  /// `kalends audit uses --format json` for the agenda app.
  static func uses(_ served: ServedStore) throws -> [[String: Any]] {
    try served.store.objects(["audit", "uses", "--client", Self.agenda, "--format", "json"])
  }

  @Test func aReadIsRecordedBeforeItsAnswerLeavesSoASigkillRightAfterKeepsIt() throws {
    let (served, program, health) = try Self.served()
    let answer = try served.get(Self.week, by: program)
    #expect(answer.status == 200)
    #expect((answer.body as? [[String: Any]])?.map { $0["title"] as? String } == ["Therapy"])
    served.kill()
    let uses = try Self.uses(served)
    let query = try #require(uses.first { $0["operation"] as? String == "query events" }, "\(uses)")
    #expect(query["count"] as? Int == 1)
    #expect(query["app"] as? String == "Agenda")
    #expect(query["identified"] as? Bool == true)
    let calendars = try #require(query["calendars"] as? [[String: Any]])
    #expect(calendars.map { $0["id"] as? String } == [health])
    #expect(calendars.map { $0["title"] as? String } == ["Health"])
    let caller = try #require(query["caller"] as? [String: Any])
    #expect(caller["identifiedBy"] as? String == "executable", "\(caller)")
    // `audit uses --calendar` answers "which apps read my Health calendar" by its title.
    let byTitle = try served.store.objects(["audit", "uses", "--calendar", "Health", "--format", "json"])
    #expect(Set(byTitle.compactMap { $0["client"] as? String }) == [Self.agenda])
    #expect(try served.store.run(["verify"]).status == 0)
  }

  @Test func everyReadIsCountedOnceTheServerStopsThroughTheAPIAndCalDAV() throws {
    let (served, program, _) = try Self.served()
    for _ in 0..<7 { #expect(try served.get(Self.week, by: program).status == 200) }
    let calendars = try served.get("/v1/calendars", by: program)
    #expect(calendars.status == 200)
    served.stop()
    let uses = try Self.uses(served)
    func count(_ operation: String) -> Int {
      uses.filter { $0["operation"] as? String == operation }.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
    }
    #expect(count("query events") == 7, "\(uses)")
    #expect(count("list calendars") >= 1, "\(uses)")
    // `audit apps` sums them per app and service.
    let apps = try served.store.objects(["audit", "apps", "--format", "json"])
    let row = try #require(
      apps.first { $0["client"] as? String == Self.agenda && $0["service"] as? String == "calendars" })
    #expect(row["status"] as? String == "fullAccess")
    #expect(row["reads7d"] as? Int == uses.reduce(0) { $0 + ($1["count"] as? Int ?? 0) })
    #expect(row["lastCaller"] as? String == "identified")
  }

  @Test func aCalDAVReportIsAUseOfTheCalendarItQueried() throws {
    let (served, program, health) = try Self.served()
    let report = """
      <?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\
      <D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">\
      <C:time-range start="20261201T000000Z" end="20261208T000000Z"/></C:comp-filter></C:comp-filter></C:filter>\
      </C:calendar-query>
      """
    let arguments = [
      program, "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "REPORT", "--unix-socket", served.socket,
      "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data-binary", report,
      "http://kalends/dav/calendars/\(health)/",
    ]
    let result = try CLI.run(Array(arguments.dropFirst()), program: URL(fileURLWithPath: program))
    #expect(result.stdout == "207", "\(result.stdout) \(result.stderr)")
    served.kill()
    let uses = try Self.uses(served)
    let query = try #require(uses.first { $0["operation"] as? String == "query events" }, "\(uses)")
    #expect((query["calendars"] as? [[String: Any]])?.map { $0["id"] as? String } == [health])
  }

  @Test func aRefusedReadIsARefusalAndNoUse() throws {
    let (served, program, _) = try Self.served()
    try served.store.object(["access", "set", Self.agenda, "--service", "calendars", "--status", "denied"])
    #expect(try served.get(Self.week, by: program).status == 403)
    served.kill()
    #expect(try Self.uses(served).isEmpty)
    let history = try served.store.objects(["audit", "history", "--client", Self.agenda, "--format", "json"])
    #expect(history.contains { $0["kind"] as? String == "accessAttemptRefused" }, "\(history)")
  }
}
