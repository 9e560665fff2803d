import ArgumentParser
import Kalends

/// Optimistic concurrency for commands that change or remove an item: the item is saved with the
/// version it was fetched at, so a change made meanwhile is a conflict (exit 67).
struct ChangeOptions: ParsableArguments {
  @Option(
    name: .customLong("if-version"),
    help: ArgumentHelp("Change it only if it is still at this version (exit 67 if not).", valueName: "version"))
  var ifVersion: UInt64?

  @Flag(help: "Overwrite changes made by others since it was fetched instead of failing.")
  var force = false

  func validate() throws {
    if ifVersion != nil && force { throw ValidationError("--if-version and --force exclude each other") }
  }

  /// Refuses the change when `--if-version` names another version than the fetched one.
  func check(_ id: ObjectID, fetched version: LogPosition) throws(StoreError) {
    guard let ifVersion, LogPosition(ifVersion) != version else { return }
    throw .calendar(.changedSinceFetched(id, fetched: LogPosition(ifVersion), current: version))
  }

  /// ``check(_:fetched:)`` for a contact or a group.
  func checkContact(_ id: ObjectID, fetched version: LogPosition) throws(StoreError) {
    guard let ifVersion, LogPosition(ifVersion) != version else { return }
    throw .contact(.changedSinceFetched(id, fetched: LogPosition(ifVersion), current: version))
  }
}
