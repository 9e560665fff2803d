import Foundation
import Testing

/// The audit's scenario, shared by the audit commands' and the fleet's tests.
package enum AuditScenario {
  /// A scenario: planner asks and is allowed write-only, then upgraded; notes is denied, then the
  /// person allows it in settings; a policy restricts planner; a reset clears notes.
  package static func make(_ store: CLIStore) throws -> (calendar: String, at: [Int: String]) {
    let work = try store.calendar("Work")
    _ = try store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Agenda.",
      "--usage", "calendars-write-only=Bookings.",
    ])
    _ = try store.object([
      "client", "register", "com.example.notes", "--name", "Notes", "--usage", "reminders-full=Lists.",
    ])
    var instants: [Int: String] = [:]
    func mark(_ step: Int) throws {
      instants[step] = try #require(try store.objects(["log", "tail", "-n", "1"]).first?["timestamp"] as? String)
      // The behaviour under test: steps at distinct instants, so that `state --at` each one's
      // time tells them apart.
      Thread.sleep(forTimeInterval: 0.01)
    }
    let planner = ["--as", "com.example.planner"]
    let notes = ["--as", "com.example.notes"]
    _ = try store.object(
      ["access", "request", "--service", "calendars", "--level", "write-only", "--answer", "allow"] + planner)
    try mark(1)
    _ = try store.object(["access", "request", "--service", "reminders", "--answer", "deny"] + notes)
    try mark(2)
    _ = try store.object(["access", "request", "--service", "calendars", "--answer", "allow"] + planner)
    try mark(3)
    _ = try store.object(["access", "set", "com.example.notes", "--service", "reminders", "--status", "full"])
    try mark(4)
    _ = try store.object(["access", "restrict", "com.example.planner", "--service", "calendars", "--policy", "school"])
    try mark(5)
    _ = try store.object(["access", "reset", "com.example.notes"])
    try mark(6)
    return (work, instants)
  }
}
