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
  /// The wake generation of a look that read through the head: until the generation moves past
  /// it, there is nothing new (any later commit bumps it).
  private var idleGeneration: UInt64?
  /// For a client's subscription: the reads the notice about to be returned stands for, recorded
  /// by ``next(isolation:)`` before it returns it (``Store/recordUses(_:of:identifiedBy:)``).
  private var noticeUses: [ReadUses.Entry] = []

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
    signal.subscribe(
      head: { [store] in (try? store.head().position.rawValue) ?? 0 },
      read: { [store] (range) throws(StoreError) -> [DecodedRecord] in
        try StoreError.wrapping {
          try store.environment.read { txn in try DecodedRecord.read(range, log: store.log, in: txn) }
        }
      })
  }

  deinit { signal.unsubscribe() }

  /// The next notice; `nil` once the task is cancelled. Throws
  /// ``AccessError/sessionTerminated(client:at:)`` (once) when the session's access was changed.
  func next(isolation actor: isolated (any Actor)? = #isolation) async throws(StoreError) -> ChangeNotice? {
    while !finished {
      if Task.isCancelled { return nil }
      let seen = signal.generation
      // The last notice read through the head and nothing woke us since: no need to look.
      if let idle = idleGeneration {
        idleGeneration = nil
        if idle == seen {
          await signal.wait(after: seen)
          continue
        }
      }
      let step: Step
      do {
        step = try look()
      } catch .storage(.mapResized) {
        // Another process grew the map while this one's other threads kept it busy: transient.
        try? await Task.sleep(for: .milliseconds(1))
        continue
      } catch {
        finished = true
        throw error
      }
      switch step {
      case .notice(let notice):
        if notice.positions.upperBound == notice.head { idleGeneration = seen }
        if let client = viewer.client, !noticeUses.isEmpty {
          // What a notice tells an app is a read of what changed: recorded before it is told.
          defer { noticeUses = [] }
          do {
            try store.recordUses(noticeUses, of: client, identifiedBy: viewer.evidence)
          } catch {
            finished = true
            throw error
          }
        }
        return notice
      case .skipped: continue
      case .idle: await signal.wait(after: seen)
      }
    }
    return nil
  }

  /// Reads what is new: for the owner, live, from the records the watcher decoded once for every
  /// subscriber of this process; otherwise (catching up, a client session, a cursor older than
  /// the watcher's cache) from the log, in one snapshot.
  private func look() throws(StoreError) -> Step {
    if viewer.client == nil, cursor >= catchUpEnd, let records = signal.cached(after: cursor) {
      guard let last = records.last else { return .idle }
      let everything = ChangeViewer.Visibility(
        calendars: true, events: true, reminders: true, contacts: true, onlyClient: nil)
      if records.count > options.maxPendingRecords {
        return .notice(refetchAll(upTo: last.position, head: last.position, timestamp: last.timestamp))
      }
      return notice(records[...], head: last.position, catchingUp: false, everything)
    }
    return try StoreError.wrapping {
      try store.environment.read { txn -> Step in
        let head = try Store.loadHead(meta: store.meta, in: txn).position
        let visibility = try viewer.visibility(store, in: txn)
        guard head > cursor else { return .idle }
        let catchingUp = cursor < catchUpEnd
        var upTo = head
        if catchingUp {
          upTo = LogPosition(min(catchUpEnd.rawValue, cursor.rawValue + UInt64(options.catchUpBatch)))
        } else if head.rawValue - cursor.rawValue > UInt64(options.maxPendingRecords) {
          // Only the owner is told to refetch because much was written: a client told so would
          // learn that the person wrote much where it may not look. A client reads on, a batch at
          // a time, and is told to refetch only when much changed of what it sees.
          if visibility.seesItems, viewer.client == nil {
            let timestamp = try txn.withValue(forKey: BigEndianKey(head.rawValue), in: store.log) { bytes in
              var principals = PrincipalCache()
              return try RecordCodec.decodeHeader(bytes, principals: &principals).header.timestamp
            }
            return .notice(refetchAll(upTo: head, head: head, timestamp: timestamp ?? Timestamp(rawValue: 0)))
          }
          upTo = LogPosition(cursor.rawValue + UInt64(options.maxPendingRecords))
        }
        let records = try DecodedRecord.read(cursor.next...upTo, log: store.log, in: txn)
        let noted = try visibility.noting(calendarsOf: records[...], store: store, in: txn)
        return notice(records[...], head: head, catchingUp: catchingUp, noted)
      }
    }
  }

  /// The notice for `records` (the next ones after the cursor), or `.skipped` when none is visible.
  private func notice(
    _ records: ArraySlice<DecodedRecord>, head: LogPosition, catchingUp: Bool,
    _ visibility: ChangeViewer.Visibility
  ) -> Step {
    guard let last = records.last else { return .idle }
    let upTo = last.position
    let range = cursor.next...upTo
    var changes: [ChangedObject: ChangeKind] = [:]
    noticeUses = []
    for record in records {
      guard let object = record.object, let recordKind = record.kind,
        let kind = visibility.heard(object, recordKind, calendar: record.calendar, movedFrom: record.movedFrom)
      else { continue }
      changes[object] = changes[object].map { $0.followed(by: kind) } ?? kind
      if viewer.client != nil { note(object, calendar: record.calendar, visibility) }
      // A contact's change is also one of its events in the birthdays calendar: those its new
      // state holds are told `added` (fetch it: the record does not say whether the date is new
      // or changed), the others `removed` — which may name an event the subscriber never held,
      // and then it has nothing to do.
      if visibility.birthdays, case .contact(let id) = object {
        for date in BirthdayKind.allCases {
          let event = ChangedObject.event(BirthdaysCalendar.eventID(of: id, date))
          let told: ChangeKind
          if record.contactDates.contains(date) {
            told = .added
          } else if kind == .added {
            continue
          } else {
            told = .removed
          }
          changes[event] = changes[event].map { $0.followed(by: told) } ?? told
          if viewer.client != nil { note(event, calendar: BirthdaysCalendar.id, visibility) }
        }
      }
      if changes.count > options.maxObjects {
        // Told to refetch, it is told of nothing in particular: its refetch is its read.
        noticeUses = []
        return .notice(refetchAll(upTo: upTo, head: head, timestamp: last.timestamp, records: records))
      }
    }
    let origin = origin(of: range, records)
    cursor = upTo
    guard !changes.isEmpty else { return .skipped }
    let covered = delivered.next...upTo
    delivered = upTo
    return .notice(
      ChangeNotice(
        positions: covered, changes: changes, refetchAll: false, origin: origin, isCatchUp: catchingUp, head: head,
        lastTimestamp: last.timestamp))
  }

  /// Notes, for a client's notice, that it tells of `object` (changed by a record naming
  /// `calendar`): a read of that service, touching that calendar (or chosen contact).
  private func note(_ object: ChangedObject, calendar: ObjectID?, _ visibility: ChangeViewer.Visibility) {
    func touch(_ service: Service, _ id: ObjectID?) {
      guard let state = visibility.states[service] else { return }
      if !noticeUses.contains(where: { $0.service == service }) {
        noticeUses.append(ReadUses.Entry(service: service, operation: "hear of changes", state: state))
      }
      guard let id, let index = noticeUses.firstIndex(where: { $0.service == service }) else { return }
      noticeUses[index].objects.insert(id)
    }
    switch object {
    case .event: touch(.calendars, calendar)
    case .reminder: touch(.reminders, calendar)
    case .calendar(let id):
      let types = visibility.calendarTypes[id] ?? [.events, .reminders]
      if types.contains(.events) && visibility.events { touch(.calendars, id) }
      if types.contains(.reminders) && visibility.reminders { touch(.reminders, id) }
    case .contact(let id): touch(.contacts, visibility.contactScope == nil ? nil : id)
    case .group: touch(.contacts, nil)
    case .client: break
    }
  }

  /// A notice covering everything up to `upTo` that says: refetch everything.
  private func refetchAll(
    upTo: LogPosition, head: LogPosition, timestamp: Timestamp, records: ArraySlice<DecodedRecord>? = nil
  ) -> ChangeNotice {
    let covered = delivered.next...upTo
    let range = cursor.next...upTo
    let source: ChangeNotice.Origin
    if let records {
      source = origin(of: range, records)
    } else {
      // Not read: count the commits this process registered in the range, without their hashes.
      let local = LocalCommits.commits(store.id, endingIn: range).values.reduce(UInt64(0)) { sum, commit in
        sum + commit.last.rawValue - max(commit.first.rawValue, range.lowerBound.rawValue) + 1
      }
      source = Self.origin(local: local, of: range)
    }
    let catchingUp = cursor < catchUpEnd
    cursor = upTo
    delivered = upTo
    return ChangeNotice(
      positions: covered, changes: [:], refetchAll: true, origin: source, isCatchUp: catchingUp, head: head,
      lastTimestamp: timestamp)
  }

  /// Where the records of `range` came from: the commits this process registered whose last
  /// record is there with the registered hash.
  private func origin(of range: ClosedRange<LogPosition>, _ records: ArraySlice<DecodedRecord>) -> ChangeNotice.Origin {
    let commits = LocalCommits.commits(store.id, endingIn: range)
    guard !commits.isEmpty else { return .otherProcess }
    var local: UInt64 = 0
    for record in records {
      guard let commit = commits[record.position], commit.lastHash == record.hash else { continue }
      local += commit.last.rawValue - max(commit.first.rawValue, range.lowerBound.rawValue) + 1
    }
    return Self.origin(local: local, of: range)
  }

  /// Whether `local` of the positions of `range` being this process's makes it all, none or some.
  private static func origin(local: UInt64, of range: ClosedRange<LogPosition>) -> ChangeNotice.Origin {
    let count = range.upperBound.rawValue - range.lowerBound.rawValue + 1
    return local == 0 ? .otherProcess : (local >= count ? .thisProcess : .mixed)
  }
}
