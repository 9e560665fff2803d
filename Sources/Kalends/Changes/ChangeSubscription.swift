internal import LMDB

/// The state of one change subscription: where it has read up to, what it has announced, and how
/// to build its next notice from the log.
///
/// Nothing is queued for a subscriber: the log is the queue. Each notice is built when the
/// subscriber asks for it, from the records after its cursor, so a slow subscriber costs the writer
/// nothing and its pending changes merge into its next notice by themselves.
final class ChangeSubscription {
  /// What one look at the log found.
  private enum Step {
    case notice(ChangeNotice)
    /// Records were read but none was visible: look again at once.
    case skipped
    /// Nothing new: wait for a change.
    case idle
  }

  let store: Store
  let viewer: ChangeViewer
  let options: ChangeStreamOptions
  private let signal: ChangeSignal
  /// The last position read.
  private var cursor: LogPosition
  /// The last position a delivered notice covered.
  private var delivered: LogPosition
  /// The head when the subscription started: records up to it are history (catch-up).
  private let catchUpEnd: LogPosition
  private var finished = false

  /// Subscribes from `start` (`nil`: from the next record appended).
  init(store: Store, viewer: ChangeViewer, from start: LogPosition?, options: ChangeStreamOptions) throws(StoreError) {
    let head = try store.head().position
    if let start {
      guard start.rawValue >= 1, start.rawValue <= head.rawValue + 1 else {
        throw .recordNotFound(start, head: head)
      }
      cursor = LogPosition(start.rawValue - 1)
    } else {
      cursor = head
    }
    self.store = store
    self.viewer = viewer
    self.options = options
    delivered = cursor
    catchUpEnd = head
    signal = ChangeSignal.shared(for: store.path)
    signal.subscribe { [store] in (try? store.head().position.rawValue) ?? 0 }
  }

  deinit { signal.unsubscribe() }

  /// The next notice; `nil` once the task is cancelled. Throws
  /// ``AccessError/sessionTerminated(client:at:)`` (once) when the session's access was changed.
  func next(isolation actor: isolated (any Actor)? = #isolation) async throws(StoreError) -> ChangeNotice? {
    while !finished {
      if Task.isCancelled { return nil }
      let seen = signal.generation
      let step: Step
      do {
        step = try look()
      } catch {
        finished = true
        throw error
      }
      switch step {
      case .notice(let notice): return notice
      case .skipped: continue
      case .idle: await signal.wait(after: seen)
      }
    }
    return nil
  }

  /// Reads what is new in one snapshot.
  private func look() throws(StoreError) -> Step {
    try StoreError.wrapping {
      try store.environment.read { txn -> Step in
        let head = try Store.loadHead(meta: store.meta, in: txn).position
        let visibility = try viewer.visibility(store, in: txn)
        guard head > cursor else { return .idle }
        let catchingUp = cursor < catchUpEnd
        var upTo = head
        if catchingUp {
          upTo = LogPosition(min(catchUpEnd.rawValue, cursor.rawValue + UInt64(options.catchUpBatch)))
        } else if head.rawValue - cursor.rawValue > UInt64(options.maxPendingRecords) {
          if visibility.seesItems { return .notice(try refetchAll(upTo: head, head: head, in: txn)) }
          upTo = LogPosition(cursor.rawValue + UInt64(options.maxPendingRecords))
        }
        return try read(upTo: upTo, head: head, catchingUp: catchingUp, visibility, in: txn)
      }
    }
  }

  /// Collects the visible changes of `cursor+1 ... upTo`.
  private func read(
    upTo: LogPosition, head: LogPosition, catchingUp: Bool, _ visibility: ChangeViewer.Visibility,
    in txn: borrowing ReadTransaction
  ) throws -> Step {
    let range = cursor.next...upTo
    let commits = LocalCommits.commits(store.id, endingIn: range)
    var changes: [ChangedObject: ChangeKind] = [:]
    var overflow = false
    var local: UInt64 = 0
    var lastTimestamp = Timestamp(rawValue: 0)
    try txn.withCursor(on: store.log) { logCursor in
      guard try logCursor.seek(atLeast: BigEndianKey(range.lowerBound.rawValue)) else { return }
      var principals = PrincipalCache()
      try logCursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        let header = decoded.header
        if let commit = commits[header.position], commit.lastHash == header.hash {
          local += commit.last.rawValue - max(commit.first.rawValue, range.lowerBound.rawValue) + 1
        }
        lastTimestamp = header.timestamp
        if !overflow, let (object, kind) = try ChangeExtractor.change(header, value.extracting(decoded.payload)),
          visibility.allows(object)
        {
          changes[object] = changes[object].map { $0.followed(by: kind) } ?? kind
          if changes.count > options.maxObjects { overflow = true }
        }
        return header.position < upTo ? .continue : .stop
      }
    }
    if overflow { return .notice(try refetchAll(upTo: upTo, head: head, in: txn)) }
    cursor = upTo
    guard !changes.isEmpty else { return .skipped }
    let covered = delivered.next...upTo
    let origin = Self.origin(local: local, of: range)
    delivered = upTo
    return .notice(
      ChangeNotice(
        positions: covered, changes: changes, refetchAll: false, origin: origin, isCatchUp: catchingUp, head: head,
        lastTimestamp: lastTimestamp))
  }

  /// A notice covering everything up to `upTo` that says: refetch everything.
  private func refetchAll(upTo: LogPosition, head: LogPosition, in txn: borrowing ReadTransaction) throws
    -> ChangeNotice
  {
    let timestamp = try txn.withValue(forKey: BigEndianKey(upTo.rawValue), in: store.log) { bytes in
      var principals = PrincipalCache()
      return try RecordCodec.decodeHeader(bytes, principals: &principals).header.timestamp
    }
    let covered = delivered.next...upTo
    let range = cursor.next...upTo
    let commits = LocalCommits.commits(store.id, endingIn: range)
    let local = commits.values.reduce(UInt64(0)) { sum, commit in
      sum + commit.last.rawValue - max(commit.first.rawValue, range.lowerBound.rawValue) + 1
    }
    let origin = Self.origin(local: local, of: range)
    let catchingUp = cursor < catchUpEnd
    cursor = upTo
    delivered = upTo
    return ChangeNotice(
      positions: covered, changes: [:], refetchAll: true, origin: origin, isCatchUp: catchingUp, head: head,
      lastTimestamp: timestamp ?? Timestamp(rawValue: 0))
  }

  /// Whether `local` of the positions of `range` being this process's makes it all, none or some.
  private static func origin(local: UInt64, of range: ClosedRange<LogPosition>) -> ChangeNotice.Origin {
    let count = range.upperBound.rawValue - range.lowerBound.rawValue + 1
    return local == 0 ? .otherProcess : (local >= count ? .thisProcess : .mixed)
  }
}
