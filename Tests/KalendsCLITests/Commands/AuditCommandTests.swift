import Foundation
import KalendsTestSupport
import LMDB
import Testing

@Suite("Command line: audit")
struct AuditCommandTests {
  func statuses(_ store: CLIStore, at instant: String) throws -> [String: String] {
    let rows = try store.objects(["audit", "state", "--at", instant])
    var result: [String: String] = [:]
    for row in rows {
      guard let client = row["client"] as? String, let service = row["service"] as? String,
        let status = row["status"] as? String, status != "notDetermined"
      else { continue }
      result["\(client) \(service)"] = status
    }
    return result
  }

  @Test func stateAtEachInstantAndTheHistoryFollowTheScenario() throws {
    let store = try CLIStore()
    let (work, at) = try AuditScenario.make(store)
    let planner = "com.example.planner calendars"
    let notes = "com.example.notes reminders"
    #expect(try statuses(store, at: at[1]!) == [planner: "writeOnly"])
    #expect(try statuses(store, at: at[2]!) == [planner: "writeOnly", notes: "denied"])
    #expect(try statuses(store, at: at[3]!) == [planner: "fullAccess", notes: "denied"])
    #expect(try statuses(store, at: at[4]!) == [planner: "fullAccess", notes: "fullAccess"])
    #expect(try statuses(store, at: at[5]!) == [planner: "restricted", notes: "fullAccess"])
    #expect(try statuses(store, at: at[6]!) == [planner: "restricted"])
    #expect(try statuses(store, at: "2000-01-01").isEmpty, "nobody was registered yet")

    let history = try store.objects(["audit", "history", "--client", "com.example.planner"])
    let decisions = history.filter { $0["kind"] as? String == "accessDecided" }
    #expect(decisions.map { $0["status"] as? String } == ["writeOnly", "fullAccess", "restricted"])
    #expect(decisions.map { $0["reason"] as? String } == ["userPrompt", "upgrade", "policy"])
    #expect(decisions.map { $0["actor"] as? String } == ["person", "person", "policy:school"])
    #expect(history.first?["kind"] as? String == "clientRegistered")
    // --client takes the app's name as people know it, as the id.
    for name in ["Planner", "planner", "Plan"] {
      let named = try store.objects(["audit", "history", "--client", name])
      #expect(named.count == history.count, "\(name)")
    }
    // A table's times are the person's ($TZ), UTC a flag away; the JSON's stay UTC.
    let local = try store.run(["audit", "history", "--client", "Planner"], environment: ["TZ": "Asia/Kolkata"])
    #expect(local.status == 0 && local.stdout.contains("+05:30") && !local.stdout.contains("Z  "), "\(local.stdout)")
    let utc = try store.run(["audit", "history", "--client", "Planner", "--utc"], environment: ["TZ": "Asia/Kolkata"])
    #expect(utc.status == 0 && !utc.stdout.contains("+05:30") && utc.stdout.contains("Z"), "\(utc.stdout)")
    let unknown = try store.run(["audit", "history", "--client", "Calendar"])
    #expect(unknown.status == 66 && unknown.stderr.contains("no app is named \"Calendar\""), "\(unknown.stderr)")
    let all = try store.objects(["audit", "history"])
    #expect(all.count > history.count)
    let since = try store.objects(["audit", "history", "--since", at[4]!, "--service", "reminders"])
    #expect(since.map { $0["reason"] as? String } == ["userSettings", "reset"], "since is inclusive")

    let whoCan = try store.objects(["audit", "who-can", "--service", "calendars", "--at", at[3]!])
    #expect(whoCan.map { $0["client"] as? String } == ["com.example.planner"])
    #expect(whoCan.first?["may"] as? String == "read and write")
    let early = try store.objects(["audit", "who-can", "--service", "calendars", "--at", at[1]!, "--calendar", work])
    #expect(early.first?["may"] as? String == "add events", "write-only at instant 1")
    #expect(try store.run(["audit", "who-can", "--service", "reminders", "--calendar", work]).status == 65)
    let nobody = try store.run(["audit", "who-can", "--service", "calendars", "--at", "2000-01-01"])
    #expect(nobody.status == 0)
    #expect(nobody.stdout.hasPrefix("no app could use calendars at 2000-01-01T00:00:00"), "\(nobody.stdout)")
    #expect(try store.objects(["audit", "who-can", "--service", "calendars", "--at", "2000-01-01"]).isEmpty)
    let csv = try store.run(["audit", "state", "--at", at[4]!, "--format", "csv"])
    #expect(csv.stdout.hasPrefix("client,service,status,decision,reason,chosen\n"))
  }

  /// The record views for people name the privacy enums; JSON keeps the stored numbers.
  @Test func logViewsNameServicesStatusesAndReasons() throws {
    let store = try CLIStore()
    _ = try AuditScenario.make(store)
    let tail = try store.run(["log", "tail", "-n", "20"])
    #expect(tail.status == 0, "\(tail.stderr)")
    #expect(tail.stdout.contains("service=reminders status=denied"), "\(tail.stdout)")
    #expect(tail.stdout.contains("service=calendars level=write-on"), "\(tail.stdout)")
    #expect(!tail.stdout.contains("service=1"), "\(tail.stdout)")
    let last = try #require(try store.objects(["log", "tail", "-n", "1"]).first)
    let position = try #require(last["position"] as? Int)
    let shown = try store.run(["log", "show", String(position)])
    #expect(shown.stdout.contains("payload.reason          reset"), "\(shown.stdout)")
    #expect(shown.stdout.contains("payload.previousStatus  fullAccess"), "\(shown.stdout)")
    let payload = try #require(last["payload"] as? [String: Any])
    #expect(payload["reason"] as? Int != nil, "JSON keeps the stored number: \(payload)")
  }

  @Test func auditVerifyFailsAfterAnyRecordIsAlteredRemovedOrReordered() throws {
    for damage in ["alter", "remove", "reorder"] {
      let store = try CLIStore()
      _ = try AuditScenario.make(store)
      #expect(try store.run(["audit", "verify"]).status == 0)
      let environment = try Environment(path: store.directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
      let log = try environment.openDatabase(named: "log", options: [])
      try environment.write { txn in
        switch damage {
        case "alter":
          var value = try #require(try txn.value(forKey: BigEndianKey(UInt64(6)), in: log))
          value[value.count - 65] ^= 0x01
          try txn.put(value, forKey: BigEndianKey(UInt64(6)), in: log)
        case "remove":
          _ = try txn.delete(BigEndianKey(UInt64(6)), in: log)
        default:
          let five = try #require(try txn.value(forKey: BigEndianKey(UInt64(5)), in: log))
          let six = try #require(try txn.value(forKey: BigEndianKey(UInt64(6)), in: log))
          try txn.put(six, forKey: BigEndianKey(UInt64(5)), in: log)
          try txn.put(five, forKey: BigEndianKey(UInt64(6)), in: log)
        }
      }
      let result = try store.run(["audit", "verify"])
      #expect(result.status == 69, "\(damage): \(result.stderr)")
      #expect(
        result.stderr.contains("position 5") || result.stderr.contains("position 6"), "\(damage): \(result.stderr)")
    }
  }

  /// What apps read, from several processes: each `--as` command's reads are in the log when it
  /// ends, declared (not identified), with the calendars by title; `audit apps` sums them.
  @Test func usesFromSeveralProcessesAddUpAndNameTheCalendarsTheyTouched() throws {
    let store = try CLIStore()
    let health = try store.calendar("Health")
    let work = try store.calendar("Work")
    _ = try store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Agenda.",
    ])
    _ = try store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "full"])
    for _ in 0..<3 {
      let listed = try store.run(["event", "list", "--calendar", health, "--as", "com.example.planner"])
      #expect(listed.status == 0, "\(listed.stderr)")
    }
    let uses = try store.objects(["audit", "uses", "--calendar", "Health", "--format", "json"])
    let reads = uses.filter { $0["operation"] as? String == "read events" }
    #expect(reads.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 3, "\(uses)")
    #expect(reads.allSatisfy { $0["caller"] as? String == "declared" && $0["identified"] as? Bool == false })
    #expect(reads.allSatisfy { $0["app"] as? String == "Planner" })
    let titles = reads.flatMap { ($0["calendars"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
    #expect(Set(titles) == ["Health"])
    // Work was never read.
    #expect(try store.objects(["audit", "uses", "--calendar", work, "--format", "json"]).isEmpty)
    let table = try store.run(["audit", "uses", "--since", "1d"])
    #expect(
      table.status == 0 && table.stdout.contains("Health") && table.stdout.contains("declared"), "\(table.stdout)")
    let apps = try store.objects(["audit", "apps", "--format", "json"])
    let planner = try #require(
      apps.first { $0["client"] as? String == "com.example.planner" && $0["service"] as? String == "calendars" })
    #expect(planner["reads7d"] as? Int == uses.reduce(0) { $0 + ($1["count"] as? Int ?? 0) })
    #expect(planner["lastCaller"] as? String == "declared")
    #expect(planner["app"] as? String == "Planner")

    // The App Privacy Report's shape: each line parses alone, each interval is a begin and an
    // end sharing an identifier, and the counts are the reads.
    let export = try store.run(["audit", "export", "--format", "ndjson"])
    #expect(export.status == 0, "\(export.stderr)")
    let lines = try export.stdout.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(lines.count == 2 * uses.count, "\(export.stdout)")
    for line in lines {
      let accessor = try #require(line["accessor"] as? [String: Any])
      #expect(accessor["identifier"] as? String == "com.example.planner")
      #expect(accessor["identifierType"] as? String == "bundleID")
      #expect(line["type"] as? String == "access" && line["category"] as? String == "calendars")
      let stamp = try #require(line["timeStamp"] as? String)
      #expect(stamp.count == 29 && stamp.hasSuffix("+00:00"), "\(stamp)")
    }
    let byInterval = Dictionary(grouping: lines) { $0["identifier"] as? String ?? "" }
    #expect(byInterval.count == uses.count)
    for (_, pair) in byInterval {
      #expect(pair.compactMap { $0["kind"] as? String }.sorted() == ["intervalBegin", "intervalEnd"])
      let stamps = pair.sorted { ($0["kind"] as? String ?? "") < ($1["kind"] as? String ?? "") }
        .compactMap { $0["timeStamp"] as? String }
      #expect(stamps.count == 2 && stamps[0] < stamps[1], "\(stamps)")
    }
    let exported = lines.filter { $0["kind"] as? String == "intervalBegin" }.reduce(0) { sum, line in
      sum + ((line["kalends"] as? [String: Any])?["count"] as? Int ?? 0)
    }
    #expect(exported == uses.reduce(0) { $0 + ($1["count"] as? Int ?? 0) })
    let file = store.directory.path + "/report.ndjson"
    #expect(try store.run(["audit", "export", "--out", file]).status == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == export.stdout)
  }

  /// A limited contacts app's reads name the chosen contacts it was handed, by name in the table
  /// (the person reads the audit) and by id in the JSON.
  @Test func usesNameTheChosenContactsTheyTouched() throws {
    let store = try CLIStore()
    let ada = try #require(
      try store.object(["contact", "add", "--given", "Ada", "--family", "Lovelace"])["id"] as? String)
    _ = try store.object(["contact", "add", "--given", "Grace", "--family", "Hopper"])
    _ = try store.object([
      "client", "register", "com.example.cards", "--name", "Cards", "--usage", "contacts=Cards.",
    ])
    _ = try store.object([
      "access", "set", "com.example.cards", "--service", "contacts", "--status", "limited", "--contacts", ada,
    ])
    let listed = try store.run(["contact", "list", "--as", "com.example.cards"])
    #expect(listed.status == 0 && listed.stdout.contains("Ada") && !listed.stdout.contains("Grace"), "\(listed)")
    let table = try store.run(["audit", "uses", "--client", "com.example.cards"])
    #expect(table.status == 0 && table.stdout.contains("Ada Lovelace"), "\(table.stdout)")
    #expect(!table.stdout.contains(ada) && !table.stdout.contains("Grace"), "\(table.stdout)")
    let json = try store.objects(["audit", "uses", "--client", "com.example.cards", "--format", "json"])
    let touched = json.flatMap { ($0["contacts"] as? [Any] ?? []).map { "\($0)" } }
    #expect(!touched.isEmpty && touched.allSatisfy { $0.contains(ada) }, "\(json)")
  }
}
