package import Kalends

extension AccessUse {
  /// The interval as documented in docs/cli.md's JSON shapes: `app` is the app's registered name
  /// from `names`, each calendar's `title` from `titles` (absent for one removed since).
  package func jsonFields(names: [String: String] = [:], titles: [ObjectID: String] = [:]) -> [(String, JSONValue)] {
    var fields: [(String, JSONValue)] = [
      ("start", .string(start.description)),
      ("end", .string(end.description)),
      ("client", .string(client)),
      ("app", .text(names[client])),
      ("service", .string(service.description)),
      ("operation", .string(operation)),
      ("count", .number(Double(count))),
    ]
    if service == .contacts {
      fields.append(("contacts", .array(objects.map { .string($0.description) })))
    } else {
      fields.append(
        (
          "calendars",
          .array(objects.map { .object([("id", .string($0.description)), ("title", .text(titles[$0]))]) })
        ))
    }
    fields += [
      ("status", .string(status.description)),
      ("decision", decision.map { .number(Double($0.rawValue)) } ?? .null),
      ("identified", .bool(identification != nil)),
      ("caller", CallerEvidence.caller(identification, actor: .client(client)) ?? .null),
      ("positions", .array(positions.map { .number(Double($0.rawValue)) })),
    ]
    return fields
  }
}
