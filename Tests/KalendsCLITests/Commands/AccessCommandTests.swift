import Foundation
import Kalends
import KalendsTestSupport
import Testing

@Suite("Command line: clients and access")
struct AccessCommandTests {
  @Test func anAppAsksOnceIsRefusedWhenDeniedAndSettingsChangeIt() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    _ = try store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Shows your agenda.",
    ])
    let app = ["--as", "com.example.planner"]
    let denied = try store.object(["access", "request", "--service", "calendars", "--answer", "deny"] + app)
    #expect(denied["status"] as? String == "denied")
    let again = try store.object(["access", "request", "--service", "calendars", "--answer", "allow"] + app)
    #expect(again["status"] as? String == "denied", "the decision sticks")
    let refused = try store.run(["event", "list", "--calendar", work] + app)
    #expect(refused.status == 68 && refused.stderr.contains("denied"))

    _ = try store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "full"])
    let listed = try store.run(["event", "list", "--calendar", work, "--format", "json"] + app)
    #expect(listed.status == 0, "\(listed.stderr)")
    let statuses = try store.objects(["access", "status"])
    let calendars = statuses.first { $0["service"] as? String == "calendars" }
    #expect(calendars?["status"] as? String == "fullAccess")

    let noTerminal = try store.run(["access", "request", "--service", "reminders"] + app)
    #expect(noTerminal.status == 65 && noTerminal.stderr.contains("--answer"))
    let notRegistered = try store.run(["event", "list", "--as", "com.unknown"])
    #expect(notRegistered.status == 66)
  }

  /// docs/privacy.md through the CLI: an app built for iOS 16 asks with `--legacy`.
  @Test func anAppBuiltForIOS16IsAskedForWriteOnlyAccessAndSeesItAsAuthorized() throws {
    let store = try CLIStore()
    let registered = try store.object([
      "client", "register", "com.example.old", "--name", "Old", "--sdk", "16", "--usage", "calendars=Adds bookings.",
    ])
    #expect(registered["sdk"] as? Int == 16)
    #expect((registered["usageDescriptions"] as? [String: Any])?["calendars"] as? String == "Adds bookings.")
    let app = ["--as", "com.example.old"]
    let modern = try store.run(["access", "request", "--service", "calendars", "--answer", "allow"] + app)
    #expect(modern.status == 65 && modern.stderr.contains("--legacy"), "\(modern.stderr)")
    let granted = try store.object(
      ["access", "request", "--service", "calendars", "--legacy", "--answer", "allow"] + app)
    #expect(granted["granted"] as? Bool == true)
    #expect(granted["status"] as? String == "fullAccess", "iOS 16's authorized")
    let statuses = try store.objects(["access", "status", "com.example.old"])
    #expect(statuses.first { $0["service"] as? String == "calendars" }?["status"] as? String == "writeOnly")
    #expect(try store.run(["client", "register", "com.example.old", "--name", "Old", "--sdk", "4"]).status == 65)
    let current = try store.object(["client", "register", "com.example.new", "--name", "New"])
    #expect(current["sdk"] as? Int == 17)
    let refused = try store.run(
      ["access", "request", "--service", "calendars", "--legacy", "--answer", "allow", "--as", "com.example.new"])
    #expect(refused.status == 65 && refused.stderr.contains("requestFullAccessToEvents"), "\(refused.stderr)")
  }

  @Test func aRevokeByAnotherProcessEndsThisProcesssSession() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    _ = try store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=x",
    ])
    _ = try store.object([
      "access", "request", "--service", "calendars", "--answer", "allow", "--as", "com.example.planner",
    ])
    let owner = EventStore(store: try Store.open(at: store.directory.storePath))
    let session = try owner.session(for: "com.example.planner")
    let calendar = try #require(ObjectID(work))
    #expect(try session.events(inCalendar: calendar).isEmpty)
    let revoked = try store.run([
      "access", "set", "com.example.planner", "--service", "calendars", "--status", "denied",
    ])
    #expect(revoked.status == 0)
    #expect {
      try session.events(inCalendar: calendar)
    } throws: { error in
      guard case .access(.sessionTerminated(let client, _)) = error as? StoreError else { return false }
      return client == "com.example.planner"
    }
  }

  @Test func thePersonGivesAnAppChosenCalendarsOnlyAndTheAuditShowsIt() throws {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let home = try store.calendar("Home")
    for (calendar, title) in [(work, "Meeting"), (home, "Dinner")] {
      try store.object([
        "event", "add", "--calendar", calendar, "--title", title, "--start", "2026-05-04T10:00:00Z", "--end",
        "2026-05-04T11:00:00Z",
      ])
    }
    try store.register("com.example.work")
    let asked = try store.object([
      "access", "request", "--as", "com.example.work", "--service", "calendars", "--answer", "allow", "--calendars",
      work,
    ])
    #expect(asked["status"] as? String == "fullAccess")
    let seen = try store.objects([
      "events", "--as", "com.example.work", "--from", "2026-05-01", "--to", "2026-05-08",
    ])
    #expect(seen.compactMap { $0["title"] as? String } == ["Meeting"])
    let refused = try store.run([
      "event", "add", "--as", "com.example.work", "--calendar", home, "--title", "Sneak", "--start",
      "2026-05-05T10:00:00Z", "--end", "2026-05-05T11:00:00Z",
    ])
    #expect(refused.status == 68, "\(refused.stderr)")

    let state = try store.objects(["audit", "state", "--format", "json"]).first {
      $0["client"] as? String == "com.example.work" && $0["service"] as? String == "calendars"
    }
    #expect(state?["chosen"] as? [String] == [work])
    let homeUsers = try store.run(["audit", "who-can", "--service", "calendars", "--calendar", home])
    #expect(homeUsers.stdout.contains("no app could use"), "\(homeUsers.stdout)")
    let workUsers = try store.objects([
      "audit", "who-can", "--service", "calendars", "--calendar", work, "--format", "json",
    ])
    #expect(workUsers.compactMap { $0["client"] as? String } == ["com.example.work"])
    #expect(workUsers.first?["may"] as? String == "read and write the chosen calendars")

    let all = try store.object(["access", "set", "com.example.work", "--service", "calendars", "--status", "full"])
    #expect(all["status"] as? String == "fullAccess")
    let both = try store.objects([
      "events", "--as", "com.example.work", "--from", "2026-05-01", "--to", "2026-05-08",
    ])
    #expect(both.count == 2)
    let set = try store.object([
      "access", "set", "com.example.work", "--service", "calendars", "--status", "full", "--calendars", home,
    ])
    #expect(set["calendars"] as? [String] == [home])
    #expect(try store.run(["verify"]).status == 0)
  }
}
