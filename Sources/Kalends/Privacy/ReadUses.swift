/// What one read of a client session used, gathered in its snapshot: each service it was allowed
/// to read (``EventStore/sees(_:_:in:noting:)`` notes it, with the decision in force) and the
/// calendars or chosen contacts it touched. The read counts them once its snapshot is closed
/// (``UseTally``). Owned by that one read, on its thread.
final class ReadUses {
  struct Entry {
    let service: Service
    let operation: String
    let state: PermissionState
    var objects: Set<ObjectID> = []
  }

  private(set) var entries: [Entry] = []

  /// Notes that the read was allowed `service` by `state`; once per service and operation.
  func note(_ service: Service, _ operation: String, _ state: PermissionState) {
    guard !entries.contains(where: { $0.service == service && $0.operation == operation }) else { return }
    entries.append(Entry(service: service, operation: operation, state: state))
  }

  /// Notes that the read touched `objects`, for `service` (`nil`: every service noted).
  func touch(_ objects: some Sequence<ObjectID>, for service: Service? = nil) {
    guard !entries.isEmpty else { return }
    let objects = Set(objects)
    for index in entries.indices where service == nil || entries[index].service == service {
      entries[index].objects.formUnion(objects)
    }
  }

  /// Notes that the read touched `object`, for every service noted.
  func touch(_ object: ObjectID) {
    for index in entries.indices { entries[index].objects.insert(object) }
  }
}
