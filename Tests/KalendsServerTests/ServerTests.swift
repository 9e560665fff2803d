import Foundation
import KalendsTestSupport
import Testing

/// The store server (`kalends serve`) as a real process, called over its Unix socket by real
/// processes that it identifies by what the kernel says about them.
@Suite("The store server knows who is asking")
struct ServerTests {
  /// The hex SHA-256 of the file at `path`, computed by Python's hashlib.
  static func digest(_ path: String) throws -> String {
    let result = try CLI.run(
      ["python3", "-c", "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", path],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func anAppIsKnownByItsExecutableAndGetsWhatItsStatusAllows() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let calendar = try served.store.calendar("Work")
    try served.store.object([
      "event", "add", "--calendar", calendar, "--title", "Standup", "--start", "2026-03-02T09:00:00", "--end",
      "2026-03-02T09:15:00",
    ])

    let whoami = try served.get("/v1/whoami", by: agenda)
    #expect(whoami.status == 200)
    let identity = try #require(whoami.body as? [String: Any])
    #expect(identity["client"] as? String == "com.example.agenda")
    #expect(identity["executable"] as? String == agenda)
    #expect(identity["executableSha256"] as? String == (try Self.digest(agenda)))
    #expect(identity["uid"] as? Int == Int(getuid()))

    // Before a decision the app gets nothing, and the refusal is recorded as the app's.
    let week = "/v1/events?from=2026-03-02&to=2026-03-09"
    let refused = try served.get(week, by: agenda)
    #expect(refused.status == 403)
    #expect((refused.body as? [String: Any])?["category"] as? String == "accessRefused")
    #expect((refused.body as? [String: Any])?["title"] as? String == "access refused")
    let status = try served.get("/v1/authorization/calendars", by: agenda)
    #expect((status.body as? [String: Any])?["status"] as? String == "notDetermined")
    let refusals = try served.records("accessAttemptRefused")
    #expect(refusals.count == 1)
    #expect((refusals.first?["actor"] as? [String: Any])?["id"] as? String == "com.example.agenda")

    // The person grants access; the app's next connection sees the week.
    try served.store.object([
      "access", "set", "com.example.agenda", "--service", "calendars", "--status", "full",
    ])
    let granted = try served.get(week, by: agenda)
    #expect(granted.status == 200)
    let events = try #require(granted.body as? [[String: Any]])
    #expect(events.map { $0["title"] as? String } == ["Standup"])
    // The same week as index entries: the instance of 09:00-09:15 UTC on 2 March 2026.
    let instances = try served.get(week.replacingOccurrences(of: "events", with: "instances"), by: agenda)
    let instance = try #require((instances.body as? [[String: Any]])?.first)
    #expect(instance["start"] as? Int == 1_772_442_000)
    #expect(instance["end"] as? Int == 1_772_442_900)
    #expect(instance["calendarId"] as? String == calendar)
    #expect(instance["occurrenceDate"] as? String == "2026-03-02T09:00:00")
    #expect(instance["id"] as? String == (events.first?["id"] as? String))
    #expect(instance["allDay"] as? Bool == false)
    #expect(instance["recurring"] as? Bool == false)
    let calendars = try served.get("/v1/calendars", by: agenda)
    #expect((calendars.body as? [[String: Any]])?.map { $0["id"] as? String } == [calendar])
  }

  /// The instances route (written byte by byte) names the same occurrences as the events route
  /// (built from the library's events), on a store of recurring, all-day and floating events.
  @Test func instancesAgreeWithEventsOnAGeneratedStore() throws {
    let served = try ServedStore(generatedEvents: 3_000)
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let window = "?from=2024-02-20&to=2024-03-20"
    let instances = try #require(try served.get("/v1/instances" + window, by: agenda).body as? [[String: Any]])
    let events = try #require(try served.get("/v1/events" + window, by: agenda).body as? [[String: Any]])
    #expect(instances.count == events.count)
    #expect(instances.count > 100)
    for (instance, event) in zip(instances, events) {
      #expect(instance["id"] as? String == event["id"] as? String)
      #expect(instance["calendarId"] as? String == event["calendarId"] as? String)
      #expect(instance["allDay"] as? Bool == event["allDay"] as? Bool)
      let local = try #require((event["occurrenceDate"] as? String) ?? (event["start"] as? String))
      let occurrence = try #require(instance["occurrenceDate"] as? String)
      #expect(occurrence.hasPrefix(String(local.prefix(min(19, local.count)))), "\(occurrence) \(local)")
      #expect(instance["recurring"] as? Bool == !((event["recurrenceRules"] as? [Any]) ?? []).isEmpty)
    }
  }

  /// The served OpenAPI document is 3.1 and every operation it names is a route of the server.
  @Test func everyOperationOfTheOpenAPIDocumentIsARoute() throws {
    // The contact picker waits for the person, who never answers here: 204 after a second.
    let served = try ServedStore(["--prompt-timeout", "1"])
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let calendar = try served.store.calendar("Work")
    let event = try served.store.object([
      "event", "add", "--calendar", calendar, "--title", "Standup", "--start", "2026-03-02T09:00:00", "--end",
      "2026-03-02T09:15:00",
    ])
    let id = try #require(event["id"] as? String)
    let document = try #require(try served.get("/v1/openapi.json", by: try served.app("anyone")).body as? [String: Any])
    #expect(document["openapi"] as? String == "3.1.0")
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    #expect(paths.count == 20)
    for (template, item) in paths.sorted(by: { $0.key < $1.key }) where template != "/v1/changes" {
      let path =
        template.replacingOccurrences(of: "{service}", with: "calendars").replacingOccurrences(of: "{id}", with: id)
        + (template.hasPrefix("/v1/prompts/") ? "?answer=deny" : "")
        + (template == "/v1/events" || template == "/v1/instances" ? "?from=2026-03-01&to=2026-03-08" : "")
      for method in ["get", "post", "patch", "delete"] where item[method] != nil {
        let answer = try served.call(
          method.uppercased(), path, by: agenda,
          body: method == "post" || method == "patch"
            ? #"{"title":"x","calendarId":"\#(calendar)","start":"2026-03-09"}"# : nil)
        let isProblem = (answer.body as? [String: Any])?["category"] != nil
        #expect(answer.status != 405 && (answer.status != 404 || isProblem), "\(method) \(path): \(answer.status)")
      }
    }
  }

  @Test func aCopyChangedByOneByteIsRefusedAndRecorded() throws {
    // The three refusals share a minute with room before: the server's clock (the tests' offset) is
    // set to ten seconds into the next minute, so a slow machine cannot split them across two.
    let now = Int(Date().timeIntervalSince1970)
    let clock = ["KALENDS_TEST_CLOCK_OFFSET": String((now / 60 + 1) * 60 + 10 - now)]
    let served = try ServedStore(serving: try CLIStore(), environment: clock)
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let forged = try served.app("agenda-forged", appending: [0])
    let before = try served.store.head()

    for path in ["/v1/whoami", "/v1/calendars", "/v1/events?from=2026-03-02&to=2026-03-09"] {
      let answer = try served.get(path, by: forged)
      #expect(answer.status == 401, "\(path)")
      #expect((answer.body as? [String: Any])?["title"] as? String == "caller not identified")
    }
    #expect(try served.store.head() != before)
    var recorded = try served.records("callerUnidentified")
    #expect(recorded.count == 1, "the first refusal of the minute at once, the rest counted")
    let payload = try #require(recorded.first?["payload"] as? [String: Any])
    #expect(payload["executable"] as? String == forged)
    #expect(payload["executableSha256"] as? String == (try Self.digest(forged)))
    #expect(payload["uid"] as? Int == Int(getuid()))
    #expect((recorded.first?["actor"] as? [String: Any])?["type"] as? String == "system")
    // Nothing was read or refused in the app's name.
    #expect(try served.records("accessAttemptRefused").isEmpty)
    // Stopped, the server records what it counted: three refusals in all.
    served.stop()
    recorded = try served.records("callerUnidentified")
    let counts = recorded.map { ($0["payload"] as? [String: Any])?["count"] as? Int ?? 1 }
    #expect(counts.reduce(0, +) == 3, "\(counts)")
    #expect(recorded.count == 2)
  }

  @Test func anUnregisteredProgramIsRefused() throws {
    let served = try ServedStore()
    let stranger = try served.app("stranger")
    let answer = try served.get("/v1/whoami", by: stranger)
    #expect(answer.status == 401)
    #expect(try served.records("callerUnidentified").count == 1)
  }

  @Test func theSocketIsTheOwnersAlone() throws {
    let served = try ServedStore()
    let attributes = try FileManager.default.attributesOfItem(atPath: served.socket)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect((attributes[.ownerAccountID] as? Int) == Int(getuid()))
  }

  /// A process of another user is refused even when its executable is a registered app's and the
  /// socket's mode is opened to it.
  @Test(.enabled(if: getuid() == 0, "needs root to run a process as another user"))
  func aProcessOfAnotherUserIsRefused() throws {
    let served = try ServedStore()
    let curl = "/usr/bin/curl"
    try served.register("com.example.agenda", executable: curl)
    #expect(chmod(served.store.directory.path, 0o755) == 0)
    #expect(chmod(served.socket, 0o666) == 0)
    let answer = try served.get(
      "/v1/whoami", by: curl, prefix: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    #expect(answer.status == 401)
    let recorded = try served.records("callerUnidentified")
    #expect((recorded.first?["payload"] as? [String: Any])?["uid"] as? Int == 65534)
  }
}
