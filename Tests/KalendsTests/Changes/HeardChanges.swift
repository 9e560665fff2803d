import Kalends

/// The changes `events` hears from `position` until its notices cover `head`: each notice's
/// changes, sorted, in the order the notices came.
func heardChanges(
  _ events: EventStore, from position: LogPosition, through head: LogPosition
) async throws -> [(object: ChangedObject, kind: ChangeKind)] {
  var heard: [(object: ChangedObject, kind: ChangeKind)] = []
  var stream = events.changes(from: position).makeAsyncIterator()
  while let notice = try await stream.next() {
    heard += notice.sortedChanges
    if notice.positions.upperBound >= head { break }
  }
  return heard
}

/// The last kind heard of each object, from ``heardChanges(_:from:through:)``.
func lastHeard(
  _ events: EventStore, from position: LogPosition, through head: LogPosition
) async throws -> [ChangedObject: ChangeKind] {
  Dictionary(try await heardChanges(events, from: position, through: head).map { ($0.object, $0.kind) }) { $1 }
}
