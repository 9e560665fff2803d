import Synchronization

/// The reads of apps, counted per app, service, operation and minute (an interval, as iOS's App
/// Privacy Report records intervals rather than calls), on their way to the log as `dataRead`
/// records.
///
/// What a read says for the first time is durable before its answer leaves: the first read of an
/// interval, and any later one that touches a calendar or contact the interval's records do not
/// name yet, is appended to the log, in a write of its own, by ``EventStore``'s read before it
/// returns (``count(_:)`` hands back the record to append). So no crash hides which app read which
/// calendars in which minute. The other reads of an interval only repeat what the log holds: they
/// are counted here, in this process's memory, and appended as one record with their count by the
/// first write of the store after their minute has ended (the store server writes every few
/// seconds, ``Store/flushEndedTallies()``; a process that closes the store appends them first,
/// ``Store/flushUses()``). The counts of a minute's records add up to exactly the reads served;
/// a process killed within a minute loses the count of that minute's repeated reads, never the
/// fact that they happened.
///
/// Each process counts its own reads: the records of several processes add up.
final class UseTally: Sendable {
  /// An interval: one app's reads of one service by one operation in one minute.
  struct Key: Hashable, Sendable {
    let client: String
    let service: Service
    let operation: String
    let minute: Int64
  }

  /// One read, as the store's read saw it in its snapshot.
  struct Use: Sendable {
    let key: Key
    /// The app's status for the service then.
    let status: AuthorizationStatus
    /// The position of the decision in force (`.none`: never decided, as an app built for iOS 5).
    let decision: LogPosition
    /// The calendars or chosen contacts it touched.
    let objects: Set<ObjectID>
    /// How the store server identified the app's process, if it did.
    let evidence: CallerEvidence?
  }

  private struct Interval {
    var status: AuthorizationStatus
    var decision: LogPosition
    /// The objects the interval's durable records name.
    var named: Set<ObjectID> = []
    /// The reads counted here and not yet in the log, and what they touched.
    var count = 0
    var touched: Set<ObjectID> = []
    var evidence: CallerEvidence?
  }

  /// The counts of ended minutes a write appends (``due(before:)``), to be settled once it commits.
  struct Due: Sendable {
    let key: Key
    let count: Int
    /// The record, carrying the evidence of the interval's last identified read.
    let draft: RecordDraft
  }

  private let intervals = Mutex<[Key: Interval]>([:])
  /// Set by ``drain()``: every write then appends every count, also of the minute under way.
  private let draining = Atomic<Bool>(false)
  /// Whether reads are recorded: always, but in the benchmark that measures what recording costs
  /// (``Store/recordReads(_:)``).
  private let enabled = Atomic<Bool>(true)

  /// Whether reads are recorded.
  var isEnabled: Bool { enabled.load(ordering: .relaxed) }

  /// Turns the recording of reads on or off.
  func enable(_ on: Bool) { enabled.store(on, ordering: .relaxed) }

  /// From now on every write appends every count, also of the minute under way: for a process
  /// about to close the store (``Store/flushUses()``).
  func drain() { draining.store(true, ordering: .relaxed) }

  /// Counts `use`; returns the record to append, durably and before the read's answer leaves, when
  /// the use says what the log does not hold yet (the first of its interval, or new objects), and
  /// then ``recorded(_:)`` once it is committed. A use whose record fails to commit was not served,
  /// so it is not counted.
  func count(_ use: Use) -> RecordDraft? {
    intervals.withLock { intervals in
      if var interval = intervals[use.key], use.objects.isSubset(of: interval.named) {
        interval.count += 1
        interval.touched.formUnion(use.objects)
        interval.status = use.status
        interval.decision = use.decision
        if let evidence = use.evidence { interval.evidence = evidence }
        intervals[use.key] = interval
        return nil
      }
      return Self.draft(use.key, use.status, use.decision, use.objects, count: 1)
    }
  }

  /// Notes that the record ``count(_:)`` returned for `use` is in the log: the interval's later
  /// reads of the same objects are counted here.
  func recorded(_ use: Use) {
    intervals.withLock { intervals in
      // Intervals of ended minutes whose counts are in the log are forgotten here too, for a
      // process that reads without ever writing.
      if intervals.count > 64 { intervals = intervals.filter { $0.key.minute >= use.key.minute || $0.value.count > 0 } }
      var interval = intervals[use.key] ?? Interval(status: use.status, decision: use.decision)
      interval.named.formUnion(use.objects)
      intervals[use.key] = interval
    }
  }

  /// The records of the counts of minutes before `minute` (of every minute once draining), for a
  /// write to append; settled by ``settle(_:before:)`` when it commits.
  func due(before minute: Int64) -> [Due] {
    let bound = draining.load(ordering: .relaxed) ? .max : minute
    return intervals.withLock { intervals in
      intervals.compactMap { key, interval in
        guard key.minute < bound, interval.count > 0 else { return nil }
        var draft = Self.draft(key, interval.status, interval.decision, interval.touched, count: interval.count)
        draft.identification = interval.evidence
        return Due(key: key, count: interval.count, draft: draft)
      }
      .sorted { ($0.key.minute, $0.key.client, $0.key.operation) < ($1.key.minute, $1.key.client, $1.key.operation) }
    }
  }

  /// Whether a count of a minute before `minute` waits for a write.
  func hasDue(before minute: Int64) -> Bool {
    let bound = draining.load(ordering: .relaxed) ? .max : minute
    return intervals.withLock { $0.contains { $0.key.minute < bound && $0.value.count > 0 } }
  }

  /// Takes the counts `appended` out, now that they are in the log, and forgets the intervals of
  /// minutes before `minute` that hold no count (their later reads start a new record).
  func settle(_ appended: [Due], before minute: Int64) {
    guard !appended.isEmpty else { return }
    intervals.withLock { intervals in
      for due in appended {
        guard var interval = intervals[due.key] else { continue }
        interval.count -= due.count
        if interval.count <= 0 {
          interval.count = 0
          interval.touched = []
        }
        intervals[due.key] = interval
      }
      intervals = intervals.filter { $0.key.minute >= minute || $0.value.count > 0 }
    }
  }

  private static func draft(
    _ key: Key, _ status: AuthorizationStatus, _ decision: LogPosition, _ objects: Set<ObjectID>, count: Int
  ) -> RecordDraft {
    var payload = Payload()
    payload.append(tag: 1, string: key.client)
    payload.append(tag: 2, unsigned: UInt64(key.service.rawValue))
    payload.append(tag: 3, unsigned: UInt64(status.rawValue))
    payload.append(tag: 4, string: key.operation)
    payload.append(tag: 5, unsigned: UInt64(count))
    payload.append(tag: 6, signed: key.minute)
    for object in objects.sorted() { payload.append(tag: 7, bytes: object.bytes) }
    if decision != .none { payload.append(tag: 8, unsigned: decision.rawValue) }
    return RecordDraft(kind: .dataRead, principal: .client(key.client), payload: payload)
  }
}
