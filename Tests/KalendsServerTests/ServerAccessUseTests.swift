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

  /// Every route of the API (its OpenAPI document) is classified here: a read of an app's data
  /// must produce its use record; the others say why they read no data. A route added without
  /// its place here fails this test.
  @Test func everyRouteThatReadsAnAppsDataRecordsItsUse() throws {
    let (served, program, health) = try Self.served()
    for service in ["reminders", "contacts"] {
      try served.store.object(["access", "set", Self.agenda, "--service", service, "--status", "full"])
    }
    let event = try #require(
      try served.store.objects(["event", "list", "--calendar", health, "--format", "json"]).first?["id"] as? String)
    let contact = try #require(
      try served.store.object(["contact", "add", "--given", "Ada", "--family", "Lovelace"])["id"] as? String)
    let list = try served.store.calendar("Errands", ["--reminders"])
    let reminder = try #require(
      try served.store.object(["reminder", "add", "--calendar", list, "--title", "Buy milk"])["id"] as? String)
    // GET routes that read an app's data, each with a request and the operation it records.
    let reads: [String: (path: String, operation: String)] = [
      "/v1/calendars": ("/v1/calendars", "list calendars"),
      "/v1/events": (Self.week, "query events"),
      "/v1/events/{id}": ("/v1/events/\(event)", "read events"),
      "/v1/instances": ("/v1/instances?from=2026-12-01&to=2026-12-08&calendar=\(health)", "query events"),
      "/v1/contacts": ("/v1/contacts", "read contacts"),
      "/v1/contacts/{id}": ("/v1/contacts/\(contact)", "read contacts"),
      "/v1/groups": ("/v1/groups", "read groups"),
      "/v1/address-books": ("/v1/address-books", "read the address books"),
      "/v1/reminders": ("/v1/reminders", "read reminders"),
      "/v1/reminders/{id}": ("/v1/reminders/\(reminder)", "read reminders"),
      "/v1/sources": ("/v1/sources", "list calendars"),
    ]
    // Routes that read no data of the person's: what the server is, who the app is, its own
    // status, the person's prompts; and the stream of changes, whose notices are reads (below).
    let noData: Set<String> = [
      "GET /v1/openapi.json", "GET /v1/whoami", "GET /v1/authorization/{service}", "GET /v1/prompts",
      "GET /v1/changes",
    ]
    // Writes and requests are facts of their own in the log (an eventSaved by the app, an
    // accessRequested), not reads.
    let writes: Set<String> = [
      "POST /v1/authorization/{service}/request", "POST /v1/prompts/{id}", "POST /v1/events", "PATCH /v1/events/{id}",
      "DELETE /v1/events/{id}", "POST /v1/contacts", "PATCH /v1/contacts/{id}", "DELETE /v1/contacts/{id}",
      "POST /v1/contacts/pick", "POST /v1/calendars", "PATCH /v1/calendars/{id}", "DELETE /v1/calendars/{id}",
      "POST /v1/reminders", "PATCH /v1/reminders/{id}", "DELETE /v1/reminders/{id}",
    ]
    let document = try #require(try served.get("/v1/openapi.json", by: program).body as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    var unclassified: [String] = []
    for (path, methods) in paths {
      for method in methods.keys where ["get", "post", "put", "patch", "delete"].contains(method) {
        let route = "\(method.uppercased()) \(path)"
        if method == "get", reads[path] != nil { continue }
        if !noData.contains(route) && !writes.contains(route) { unclassified.append(route) }
      }
    }
    #expect(unclassified.isEmpty, "routes without a place in this test: \(unclassified.sorted())")
    #expect(Set(reads.keys).isSubset(of: Set(paths.keys)), "a read route left the API")

    // The change stream: a notice of Health's new event is the app's read of Health.
    // From the position of a read, so that the stream misses nothing however late it starts.
    let before = try served.exchange("GET", "/v1/calendars", by: program)
    let (stream, output, _) = try CLI.start(
      ["-N", "-s", "--unix-socket", served.socket, "http://kalends/v1/changes?after=\(before.position)"],
      program: URL(fileURLWithPath: program))
    defer {
      kill(stream.processIdentifier, SIGKILL)
      stream.waitUntilExit()
    }
    let added = try #require(
      try served.store.object([
        "event", "add", "--calendar", health, "--title", "Check-up", "--start", "2026-12-04T10:00:00", "--end",
        "2026-12-04T11:00:00",
      ])["id"] as? String)
    #expect(ServerChangeTests.read(output.fileHandleForReading, until: added).contains(added))

    for (route, read) in reads.sorted(by: { $0.key < $1.key }) {
      let answer = try served.get(read.path, by: program)
      #expect(answer.status == 200, "\(route): \(answer.status)")
    }
    served.kill()
    let operations = Set(try Self.uses(served).compactMap { $0["operation"] as? String })
    for (route, read) in reads { #expect(operations.contains(read.operation), "\(route): no \(read.operation)") }
    #expect(operations.contains("hear of changes"), "\(operations)")
  }
}
