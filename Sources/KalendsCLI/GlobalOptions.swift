import ArgumentParser
import Foundation
import Kalends

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store directory (default: $KALENDS_STORE, else $XDG_DATA_HOME/kalends/default).",
      valueName: "path"))
  var store: String?

  @Option(
    name: .customLong("as"),
    help: ArgumentHelp(
      "Act as this registered app (its access is checked and recorded); default: the person who owns the store.",
      valueName: "client"))
  var client: String?

  /// The store path this invocation uses.
  var storePath: String {
    if let store, !store.isEmpty { return store }
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["KALENDS_STORE"], !path.isEmpty { return path }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/kalends/default" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/kalends/default"
  }

  /// Opens the existing store.
  func openStore(readOnly: Bool = false) throws -> Store {
    try Store.open(at: storePath, options: StoreOptions(readOnly: readOnly))
  }

  /// The calendars, events and reminders of the existing store, as the person or, with `--as`, as
  /// a client session (opened writable, so that its refusals are recorded).
  func openEventStore(readOnly: Bool = false) throws -> EventStore {
    guard let client else { return EventStore(store: try openStore(readOnly: readOnly)) }
    return try EventStore(store: try openStore()).session(for: client)
  }
}

/// `--format` for commands that print records.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case table
  case json
  case jsonl
}

/// `--format` for commands that print one object.
enum ObjectFormat: String, ExpressibleByArgument, CaseIterable {
  case table
  case json
}
