internal import LMDB

/// The calendar store with EventKit's semantics (`EKEventStore`): calendars, events and reminders,
/// every change appended to the log as one fact and applied to the projections in the same
/// transaction.
///
/// Every write is validated inside its write transaction against the current state, so a writer in
/// another process cannot slip in between the check and the append; a refused write changes
/// nothing. Objects carry the version they were fetched at: saving a stale copy fails with
/// ``CalendarError/changedSinceFetched(_:fetched:current:)`` unless `overwrite` is set.
public final class EventStore: Sendable {
  /// The underlying log and projections.
  public let store: Store
  /// Who the changes are recorded as made by.
  public let actor: Principal

  /// A facade over `store`, recording changes as made by `actor` (by default the person who owns
  /// the store).
  public init(store: Store, actor: Principal = .person) {
    self.store = store
    self.actor = actor
  }

  /// Opens (or creates) the store at `path`.
  public convenience init(path: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
    self.init(store: try Store.openOrCreate(at: path, options: options))
  }

  // MARK: Plumbing

  /// The object projection.
  func objects() throws(StoreError) -> ObjectProjection {
    guard let objects = try store.projections.projections.first(where: { $0 is ObjectProjection }) as? ObjectProjection
    else { throw .projectionsUnavailable }
    return objects
  }

  /// Runs `body` in one write transaction of the store with the object projection at hand.
  func write<R>(
    _ body: (inout WriteTransaction, inout LogAppender, ObjectProjection) throws -> R
  ) throws(StoreError) -> R {
    let objects = try objects()
    return try StoreError.wrapping {
      try store.write { txn, appender in try body(&txn, &appender, objects) }
    }
  }

  /// Runs `body` in a read snapshot with the object projection at hand.
  func read<R>(_ body: (borrowing ReadTransaction, ObjectProjection) throws -> R) throws(StoreError) -> R {
    let objects = try objects()
    return try StoreError.wrapping { try store.environment.read { txn in try body(txn, objects) } }
  }

  /// The live calendar `id`, or a typed error.
  func liveCalendar(
    _ id: ObjectID?, objects: ObjectProjection, in txn: borrowing WriteTransaction
  ) throws -> EventCalendar {
    guard let id else { throw StoreError.calendar(.noCalendar) }
    guard let stored = try objects.state(.calendar, id, in: txn), stored.isLive else {
      throw StoreError.calendar(.calendarNotFound(id))
    }
    return try ModelCodec.decodeCalendar(id: id, version: stored.version, stored.state)
  }

  /// Refuses a save of a copy fetched at `fetched` when the stored one is at another version.
  static func checkVersion(
    _ id: ObjectID, fetched: LogPosition, stored: StoredObject, overwrite: Bool
  ) throws(StoreError) {
    guard stored.isLive else { throw .calendar(.itemRemoved(id, at: stored.version)) }
    if !overwrite && fetched != stored.version {
      throw .calendar(.changedSinceFetched(id, fetched: fetched, current: stored.version))
    }
  }

  /// Checks a text field: valid for the log, at most 1 MiB.
  static func checkText(_ text: String?, field: String) throws(StoreError) {
    guard let text else { return }
    if text.utf8.count > 1 << 20 {
      throw .calendar(.invalidText(field: field, reason: "is longer than 1 MiB"))
    }
  }
}
