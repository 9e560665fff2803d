package import Foundation
import Testing

/// A fresh store in a temporary directory, driven through the `kalends` executable.
package final class CLIStore {
  package let directory = TemporaryDirectory("items")

  package init() throws {
    let created = try CLI.run(["init", "--store", directory.storePath])
    try #require(created.status == 0, "\(created.stderr)")
  }

  /// A store holding `events` synthetic events in 20 calendars (`bench generate`).
  package init(generatedEvents events: Int) throws {
    let created = try CLI.run(["bench", "generate", "--events", "\(events)", "--store", directory.storePath])
    try #require(created.status == 0, "\(created.stderr)")
  }

  /// Runs `kalends` with `arguments` on this store.
  @discardableResult
  package func run(
    _ arguments: [String], environment: [String: String] = [:], program: URL = CLI.executable
  ) throws -> CLI.Result {
    try CLI.run(arguments + ["--store", directory.storePath], environment: environment, program: program)
  }

  /// Runs a command that must succeed and print one JSON object.
  @discardableResult
  package func object(_ arguments: [String], environment: [String: String] = [:]) throws -> [String: Any] {
    let result = try run(arguments + ["--format", "json"], environment: environment)
    try #require(result.status == 0, "\(arguments): \(result.stderr)")
    return try #require(try json(result.stdout) as? [String: Any])
  }

  /// Runs a command that must succeed and print a JSON array of objects.
  package func objects(_ arguments: [String]) throws -> [[String: Any]] {
    let result = try run(arguments + ["--format", "json"])
    try #require(result.status == 0, "\(arguments): \(result.stderr)")
    return try #require(try json(result.stdout) as? [[String: Any]])
  }

  /// Registers the app `id` with a usage description for full access to calendars.
  package func register(_ id: String) throws {
    try object(["client", "register", id, "--name", "Planner", "--usage", "calendars-full=Agenda."])
  }

  /// The id of a new calendar; `arguments` follow its title.
  package func calendar(_ title: String, _ arguments: [String] = []) throws -> String {
    try #require(try object(["calendar", "create", title] + arguments)["id"] as? String)
  }

  /// The log's last position and hash, to show that a command wrote nothing.
  package func head() throws -> String {
    let result = try run(["log", "head"])
    try #require(result.status == 0, "\(result.stderr)")
    return result.stdout
  }
}
