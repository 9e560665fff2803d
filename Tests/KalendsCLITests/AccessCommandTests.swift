import Foundation
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
}
