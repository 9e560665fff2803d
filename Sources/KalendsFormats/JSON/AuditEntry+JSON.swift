package import Kalends

extension AuditEntry {
  /// The entry as documented in docs/cli.md's JSON shapes: only the fields its kind has.
  package var jsonFields: [(String, JSONValue)] {
    var fields: [(String, JSONValue)] = [
      ("position", .number(Double(position.rawValue))),
      ("time", .string(timestamp.description)),
      ("actor", .string(actor.description)),
      ("kind", .string(kind.name)),
      ("client", .string(client)),
    ]
    // A minute's later refusals, appended after it: when they happened, as history orders them.
    if occurred != timestamp { fields.append(("occurred", .string(occurred.description))) }
    if let caller = CallerEvidence.caller(identification, actor: actor) { fields.append(("caller", caller)) }
    if let name { fields.append((kind == .clientTokenCreated ? "label" : "name", .string(name))) }
    if let tokenID { fields.append(("tokenId", .string(tokenID))) }
    if let service { fields.append(("service", .string(service.description))) }
    if let level { fields.append(("level", .string(level.description))) }
    if let previousStatus { fields.append(("previousStatus", .string(previousStatus.description))) }
    if let status { fields.append(("status", .string(status.description))) }
    if let reason { fields.append(("reason", .string(reason.description))) }
    if let prompted { fields.append(("prompted", .bool(prompted))) }
    if promptTimedOut == true { fields.append(("promptTimeout", .bool(true))) }
    if isImplicit { fields.append(("implicit", .bool(true))) }
    if !objects.isEmpty {
      fields.append(
        (
          kind == .contactPicked ? "contact" : "contacts",
          kind == .contactPicked
            ? .string(objects[0].description) : .array(objects.map { .string($0.description) })
        ))
    }
    if !removedObjects.isEmpty {
      fields.append(("removedContacts", .array(removedObjects.map { .string($0.description) })))
    }
    if let operation { fields.append(("operation", .string(operation))) }
    if let count { fields.append(("count", .number(Double(count)))) }
    return fields
  }
}

extension PendingRefusal {
  /// The start of the refusals' minute.
  package var time: Timestamp { Timestamp(rawValue: minute.multipliedReportingOverflow(by: 60_000_000).partialValue) }

  /// The refusals as an `audit history` row: not yet in the log, so without a position.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("position", .null),
      ("time", .string(time.description)),
      ("actor", .string(Principal.client(client).description)),
      ("kind", .string((service == nil ? RecordKind.ownerActionRefused : .accessAttemptRefused).name)),
      ("client", .string(client)),
    ] + (service.map { [("service", .string($0.description))] } ?? [])
      + (status.map { [("status", .string($0.description))] } ?? []) + [
        ("operation", .string(operation)),
        ("count", .number(Double(count))),
        ("pending", .bool(true)),
      ]
  }
}

extension AccessState {
  /// The state as documented in docs/cli.md's JSON shapes.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("client", .string(client)),
      ("service", .string(service.description)),
      ("status", .string(status.description)),
      ("decision", decision.map { .number(Double($0.rawValue)) } ?? .null),
      ("reason", reason.map { .string($0.description) } ?? .null),
      // The calendars or contacts the access is limited to; `null`: all.
      ("chosen", chosen.map { .array($0.map { .string($0.description) }) } ?? .null),
    ]
  }
}
