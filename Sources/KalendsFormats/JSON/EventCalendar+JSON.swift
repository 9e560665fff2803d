package import Kalends

extension EventCalendar {
  /// The calendar as documented in docs/cli.md's JSON shapes.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("id", .string(id.description)),
      ("title", .string(title)),
      ("color", .string(color)),
      ("allowedEntityTypes", .array(entityTypeNames.map(JSONValue.string))),
      ("allowsContentModifications", .bool(allowsContentModifications)),
      (
        "source",
        .object([
          ("id", .string(source.id.description)), ("title", .string(source.title)),
          ("kind", .string(String(describing: source.kind))),
        ])
      ),
      ("version", .number(version.rawValue)),
    ]
  }

  /// `events`, `reminders` or both.
  package var entityTypeNames: [String] {
    [(EntityTypes.events, "events"), (.reminders, "reminders")].filter { allowedEntityTypes.contains($0.0) }.map(\.1)
  }
}
