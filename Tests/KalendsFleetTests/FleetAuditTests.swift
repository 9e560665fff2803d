import Foundation
import KalendsTestSupport
import Testing

/// `kalends fleet audit` against the single store's audit as its oracle: stores with decisions,
/// chosen calendars and contacts, restrictions and resets push to a real `nats-server`, a mirror
/// holds them, and the fleet's answers for each store must be the store's own `kalends audit`'s.
@Suite("kalends fleet audit: the store's audit, across the fleet")
struct FleetAuditTests {
  /// The fleet's rows without the fields the single store's rows do not have.
  static func stripped(_ rows: [[String: Any]]) -> [NSDictionary] {
    rows.map { row in
      NSDictionary(dictionary: row.filter { !["store", "app", "standing", "chosenNames"].contains($0.key) })
    }
  }

  static func fleet(_ arguments: [String], _ directory: TemporaryDirectory) throws -> CLI.Result {
    try CLI.run(["fleet", "audit"] + arguments + ["--dir", directory.path])
  }

  /// The fleet's report page as headless Chromium renders it, read by `Tests/Oracles/fleet_report_check.py`.
  static func page(_ file: String) throws -> [String: Any] {
    let browser = try CLI.run(
      [
        "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--dump-dom", "file://" + file,
      ], program: URL(fileURLWithPath: "/usr/bin/env"))
    try #require(browser.status == 0, "chromium is needed (tools/setup installs it): \(browser.stderr)")
    try browser.stdout.write(toFile: file + ".dom", atomically: true, encoding: .utf8)
    let checker = Repository.root.appendingPathComponent("Tests/Oracles/fleet_report_check.py").path
    let checked = try CLI.run(["python3", checker, file + ".dom"], program: URL(fileURLWithPath: "/usr/bin/env"))
    try #require(checked.status == 0, "\(checked.stderr)")
    return try #require(try json(checked.stdout) as? [String: Any])
  }

  static func fleetRows(_ arguments: [String], _ directory: TemporaryDirectory) throws -> [[String: Any]] {
    let result = try fleet(arguments + ["--format", "json"], directory)
    try #require(result.status == 0, "\(arguments): \(result.stderr)")
    return try #require(try json(result.stdout) as? [[String: Any]])
  }

  @Test func stateWhoCanAndHistoryAreEachStoresOwnAcrossTheFleet() throws {
    let nats = try NATSServer()
    let first = try CLIStore()
    let (_, instants) = try AuditScenario.make(first)
    // Chosen calendars (with one the app creates) and limited contacts, then a later change.
    let home = try first.calendar("Home")
    _ = try first.object([
      "client", "register", "com.example.scoped", "--name", "Scoped", "--usage", "calendars-full=Plans.",
      "--usage", "contacts=Cards.",
    ])
    _ = try first.object([
      "access", "set", "com.example.scoped", "--service", "calendars", "--status", "full", "--calendars", home,
    ])
    _ = try first.calendar("Trips", ["--as", "com.example.scoped"])
    let ada = try #require(
      try first.object(["contact", "add", "--given", "Ada", "--family", "Lovelace"])["id"] as? String)
    _ = try first.object([
      "access", "set", "com.example.scoped", "--service", "contacts", "--status", "limited", "--contacts", ada,
    ])
    let second = try CLIStore()
    _ = try second.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Agenda.",
    ])
    _ = try second.object(
      ["access", "request", "--service", "calendars", "--answer", "deny", "--as", "com.example.planner"])
    for store in [first, second] {
      #expect(try store.run(["fleet", "push", "--nats", nats.url, "--org", "acme"]).status == 0)
    }
    let directory = TemporaryDirectory("mirror")
    #expect(
      try CLI.run([
        "fleet", "mirror", "--nats", nats.url, "--org", "acme", "--dir", directory.path, "--once", "--idle", "0.5",
      ]).status == 0)
    let ids = try [first, second].map { try #require(try $0.object(["status"])["storeId"] as? String) }

    let stores = try Self.fleetRows(["stores"], directory)
    #expect(Set(stores.compactMap { $0["store"] as? String }) == Set(ids))
    #expect(stores.allSatisfy { $0["standing"] as? String == "verified" }, "\(stores)")

    // State at the head and at each step of the scenario, store by store: the store's own answer.
    for at in [nil] + instants.keys.sorted().map({ instants[$0] }) {
      let instant = at.map { ["--at", $0] } ?? []
      for (store, id) in zip([first, second], ids) {
        let fleet = try Self.fleetRows(["state", "--store", id] + instant, directory)
        let own = try store.objects(["audit", "state"] + instant)
        #expect(Self.stripped(fleet) == own.map { NSDictionary(dictionary: $0) }, "at \(at ?? "head"), \(id)")
        #expect(fleet.allSatisfy { $0["store"] as? String == id })
      }
    }
    let chosen = try Self.fleetRows(["state", "--store", ids[0]], directory).filter {
      $0["client"] as? String == "com.example.scoped"
    }
    #expect(chosen.contains { ($0["chosen"] as? [String])?.count == 2 }, "Home and the calendar it made: \(chosen)")
    #expect(chosen.contains { ($0["chosen"] as? [String]) == [ada] }, "\(chosen)")
    // Named as the store names them: the calendars' titles, the contact's name.
    let named = chosen.compactMap { $0["chosenNames"] as? [String] }.map { Set($0) }
    #expect(named.contains(["Home", "Trips"]) && named.contains(["Ada Lovelace"]), "\(chosen)")

    for service in ["calendars", "reminders", "contacts"] {
      let fleet = try Self.fleetRows(["who-can", "--service", service], directory)
      for (store, id) in zip([first, second], ids) {
        let own = try store.objects(["audit", "who-can", "--service", service])
        #expect(
          Self.stripped(fleet.filter { $0["store"] as? String == id }) == own.map { NSDictionary(dictionary: $0) },
          "\(service) in \(id)")
      }
    }

    // An app's history: its records in every store, by time, named as it registered.
    let history = try Self.fleetRows(["history", "--client", "com.example.planner"], directory)
    for (store, id) in zip([first, second], ids) {
      let own = try store.objects(["audit", "history", "--client", "com.example.planner"])
      #expect(
        history.filter { $0["store"] as? String == id }.compactMap { $0["position"] as? Int }
          == own.compactMap { $0["position"] as? Int }, "\(id)")
    }
    let times = history.compactMap { $0["time"] as? String }
    #expect(times == times.sorted() && history.allSatisfy { $0["app"] as? String == "Planner" })
    let denied = try Self.fleetRows(["history", "--service", "calendars", "--store", ids[1]], directory)
    #expect(denied.contains { $0["kind"] as? String == "accessDecided" && $0["status"] as? String == "denied" })
    #expect(denied.allSatisfy { $0["store"] as? String == ids[1] })

    // The report: Planner registered in both stores, denied in the second, restricted in the first.
    let report = try Self.fleet(["report", "--format", "json"], directory)
    let answer = try #require(try json(report.stdout) as? [String: Any], "\(report.stderr)")
    let planner = try #require(
      (answer["apps"] as? [[String: Any]])?.first { $0["client"] as? String == "com.example.planner" })
    #expect(planner["stores"] as? Int == 2 && planner["calendarsDenied"] as? Int == 1, "\(planner)")
    #expect(planner["calendars"] as? Int == 0 && (answer["stores"] as? [Any])?.count == 2, "\(answer)")
    let table = try Self.fleet(["report"], directory)
    #expect(table.status == 0 && table.stdout.contains("Planner") && table.stdout.contains("2 stores held, 0 flagged"))

    // The page for a browser: opened by headless Chromium, read back by an independent parser.
    let file = directory.path + "/fleet.html"
    let written = try Self.fleet(["report", "--out", file], directory)
    #expect(written.status == 0 && written.stdout.contains("2 stores"), "\(written.stderr)")
    let page = try Self.page(file)
    let pageStores = try #require(page["stores"] as? [[String: Any]])
    #expect(
      Set(pageStores.compactMap { $0["store"] as? String }) == Set(ids)
        && pageStores.allSatisfy { $0["standing"] as? String == "verified" }, "\(pageStores)")
    for row in stores {
      let shown = pageStores.first { $0["store"] as? String == row["store"] as? String }
      #expect(shown?["verified-size"] as? String == (row["verifiedSize"] as? Int).map(String.init), "\(row)")
    }
    let pagePlanner = try #require(
      (page["apps"] as? [[String: Any]])?.first { $0["client"] as? String == "com.example.planner" })
    #expect(pagePlanner["stores"] as? String == "2" && pagePlanner["calendars-denied"] as? String == "1")
    let access = try #require(page["access"] as? [[String: Any]])
    let states = try Self.fleetRows(["state"], directory)
    #expect(
      Set(access.map { "\($0["store"] ?? "") \($0["client"] ?? "") \($0["service"] ?? "") \($0["status"] ?? "")" })
        == Set(states.map { "\($0["store"] ?? "") \($0["client"] ?? "") \($0["service"] ?? "") \($0["status"] ?? "")" })
    )
    let given = access.filter { $0["client"] as? String == "com.example.scoped" }.compactMap {
      ($0["cells"] as? [String])?.last
    }
    #expect(
      given.contains { Set($0.components(separatedBy: ", ")) == ["Home", "Trips"] } && given.contains("Ada Lovelace"),
      "\(given)")
  }

  @Test func noMirrorAndABadStoreIdAreClearErrors() throws {
    let empty = TemporaryDirectory("nothing")
    let missing = try Self.fleet(["state"], empty)
    #expect(missing.status == 66 && missing.stderr.contains("no mirror in"), "\(missing.stderr)")
    #expect(!FileManager.default.fileExists(atPath: empty.path + "/data.mdb"), "reading creates nothing")
    #expect(try Self.fleet(["stores", "--store", "not-an-id"], empty).status == 64)
  }
}
