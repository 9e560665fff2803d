package import Kalends

extension ChangeNotice {
  /// `[{"entity":…,"id":…,"change":…}, …]`: what changed, as `watch` and the server's change
  /// stream both print it.
  package var changesJSON: JSONValue {
    .array(
      sortedChanges.map { change in
        .object([
          ("entity", .string(change.object.entity)), ("id", .string(change.object.identifier)),
          ("change", .string(change.kind.rawValue)),
        ])
      })
  }
}
