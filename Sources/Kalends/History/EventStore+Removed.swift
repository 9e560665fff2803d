internal import LMDB

extension EventStore {
  /// The events and reminders removed on their own at or after `since` and not restored since,
  /// newest first, each with its title at its last save: read back from the head through the log
  /// until `since` (no index is kept: the list is asked for far less often than items are
  /// removed), each checked against the objects projection, which keeps a removed item's last
  /// save. An item removed with its calendar comes back with the calendar, and is not listed.
  /// The owner's to read (a client session's attempt is refused and recorded).
  public func removedItems(since: Timestamp) throws(StoreError) -> [RemovedItem] {
    try requireOwner("list removed events and reminders")
    let objects = try objects()
    let log = store.log
    return try StoreError.wrapping {
      try store.environment.read { txn in
        var found: [RemovedItem] = []
        var seen: Set<ObjectID> = []
        try txn.withCursor(on: log) { cursor in
          _ = try cursor.scanBackward { _, value in
            let record = try RecordCodec.decode(value)
            guard record.timestamp >= since else { return .stop }
            let kind: ObjectKind
            switch record.kind {
            case .eventRemoved: kind = .event
            case .reminderRemoved: kind = .reminder
            default: return .continue
            }
            let fields = try PayloadReader(record.payload)
            let id = try fields.requiredObjectID(1)
            guard seen.insert(id).inserted, let stored = try objects.state(kind, id, in: txn), !stored.isLive,
              let last = try? objects.lastState(stored, kind, id, in: txn)
            else { return .continue }
            found.append(
              RemovedItem(
                item: kind == .event ? .event(id) : .reminder(id), position: record.position,
                removed: record.timestamp, principal: record.principal,
                title: try last.string(2),
                calendarID: try fields.objectID(2)))
            return .continue
          }
        }
        return found
      }
    }
  }
}
