package import ArgumentParser
import Foundation
package import Kalends

/// Options every command shares.
package struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store directory (default: $KALENDS_STORE, else the settings' store, else $XDG_DATA_HOME/kalends/default).",
      valueName: "path"))
  package var store: String?

  @Option(
    name: .customLong("as"),
    help: ArgumentHelp(
      "Act as this registered app (its access is checked and recorded); default: the person who owns the store.",
      valueName: "client"))
  package var client: String?

  package init() {}

  /// The store path this invocation uses.
  package var storePath: String {
    if let store, !store.isEmpty { return store }
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["KALENDS_STORE"], !path.isEmpty { return path }
    return Self.defaultStorePath
  }

  /// The person's default store: the settings file's `store` (``ConfigFile``), else
  /// `$XDG_DATA_HOME/kalends/default`, else `~/.local/share/kalends/default`.
  package static var defaultStorePath: String {
    if let store = ConfigFile.loaded.store { return store }
    let environment = ProcessInfo.processInfo.environment
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/kalends/default" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/kalends/default"
  }

  /// Whether this invocation uses the person's default store (however it was named): its server
  /// listens at the well-known socket.
  package var isDefaultStore: Bool {
    URL(fileURLWithPath: storePath).standardizedFileURL.path
      == URL(fileURLWithPath: Self.defaultStorePath).standardizedFileURL.path
  }

  /// Opens the existing store for `what`, which only the person who owns it may do: with `--as`
  /// it is refused (``requireOwner(_:)``).
  package func openStore(readOnly: Bool = false, for what: String) throws -> Store {
    try requireOwner(what)
    return try Self.open(storePath, readOnly: readOnly)
  }

  /// Opens the store at `path`; a store from before the Merkle tree, opened writable, shows the
  /// tree's building on standard error when it is a terminal. Opened writable with
  /// `$KALENDS_CHECKPOINT_KEY` set, every commit signs a checkpoint with that key.
  package static func open(_ path: String, readOnly: Bool = false) throws -> Store {
    try open(path, readOnly: readOnly, signer: readOnly ? nil : try KeyFile.configured())
  }

  /// ``open(_:readOnly:)`` with the checkpoint key given.
  package static func open(_ path: String, readOnly: Bool, signer: CheckpointSigner?) throws(StoreError) -> Store {
    let progress = ProgressLine(label: "building the Merkle tree over the log")
    defer { progress.finish() }
    let options = withTestClock(StoreOptions(readOnly: readOnly, checkpointSigner: signer))
    return try Store.open(at: path, options: options) { state in
      if case .tree(let done, let total) = state { progress.update(done: done, total: total) }
    }
  }

  /// `options` with the tests' clock: in a debug build, a store's time moved by
  /// `$KALENDS_TEST_CLOCK_OFFSET` seconds (the tests' clock across the process boundary); a
  /// release build has no such setting, so nothing a person sets moves a store's time.
  static func withTestClock(_ options: StoreOptions) -> StoreOptions {
    #if DEBUG
      var options = options
      if let seconds = ProcessInfo.processInfo.environment["KALENDS_TEST_CLOCK_OFFSET"].flatMap({ Int64($0) }) {
        options.clockSkew = seconds * 1_000_000
      }
    #endif
    return options
  }

  /// Refuses `--as` (exit 68) for `what`, which only the person who owns the store may do. The
  /// refusal is recorded as the app's (`ownerActionRefused`) when it is registered; the error says
  /// when it could not be recorded.
  package func requireOwner(_ what: String) throws {
    guard let client else { return }
    let session: EventStore
    let signer = try KeyFile.configured()
    do {
      session = try EventStore(store: try Self.open(storePath, readOnly: false, signer: signer)).session(for: client)
    } catch .access(.clientNotRegistered), .access(.invalidClientID) {
      throw StoreError.access(.ownerOnly(what))
    } catch {
      throw StoreError.access(.refusalNotRecorded(.ownerOnly(what), reason: error.description))
    }
    try session.requireOwner(what)
  }

  /// The calendars, events and reminders of the existing store, as the person or, with `--as`, as
  /// a client session (opened writable, so that its refusals are recorded).
  package func openEventStore(readOnly: Bool = false) throws -> EventStore {
    let path = storePath
    guard let client else {
      return EventStore(store: try Self.open(path, readOnly: readOnly))
    }
    return try EventStore(store: try Self.open(path)).session(for: client)
  }
}

/// `--format` for commands that print records.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable, ConfiguredFormat {
  case table
  case json
  case jsonl
}

/// `--format` for commands that print one object.
package enum ObjectFormat: String, ExpressibleByArgument, CaseIterable, Sendable, ConfiguredFormat {
  case table
  case json
}
