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
  /// The underlying log and projections. Package-only: a client session must not hand out the raw
  /// log.
  package let store: Store
  /// Who the changes are recorded as made by.
  public let actor: Principal
  /// For a client session: the position of the last decision made outside the app when the session
  /// opened; a later one ends the session.
  let sessionStart: LogPosition
  /// For a session the store server opened: how the app's process was identified. Every record
  /// the session writes carries it.
  public let identification: CallerEvidence?
  /// For a client session: who asks the person when the app's first use of a service asks
  /// implicitly (an app built for iOS 5; the write-only app's first read); `nil`: nobody, and such
  /// a use is refused as its status says.
  let prompter: (any ConsentPrompter)?

  /// A facade over `store` for the person who owns it, with full rights: changes are recorded as
  /// the person's. For an app use ``session(for:)``, which enforces the app's access.
  public convenience init(store: Store) {
    self.init(store: store, actor: .person)
  }

  /// A facade over `store` recording changes as made by `actor`, without the checks of a client
  /// session. Package-only: which principal a write is made by is the store's decision.
  package init(store: Store, actor: Principal) {
    self.store = store
    self.actor = actor
    self.sessionStart = LogPosition(UInt64.max)
    self.identification = nil
    self.prompter = nil
  }

  init(
    store: Store, client: String, sessionStart: LogPosition, identification: CallerEvidence? = nil,
    prompter: (any ConsentPrompter)? = nil
  ) {
    self.store = store
    self.actor = .client(client)
    self.sessionStart = sessionStart
    self.identification = identification
    self.prompter = prompter
  }

  /// The caller whose records carry its identification, for ``Store/write(caller:_:)``.
  var identifiedCaller: (principal: Principal, evidence: CallerEvidence)? {
    identification.map { (actor, $0) }
  }

  /// Opens (or creates) the store at `path`.
  public convenience init(path: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
    self.init(store: try Store.openOrCreate(at: path, options: options))
  }

  // MARK: Plumbing

  /// The contacts projection.
  func contactsBook() throws(StoreError) -> ContactsProjection {
    try store.projection(ContactsProjection.self)
  }

  /// The object projection.
  func objects() throws(StoreError) -> ObjectProjection {
    try store.projection(ObjectProjection.self)
  }

  /// Runs `body` in one write transaction of the store with the object projection at hand, after
  /// checking inside that transaction that this session may do `need`. With `nil`, `body` checks
  /// what it needs from the stored state itself (``checkAccess(_:in:)``); its refusals are recorded
  /// alike.
  func write<R>(
    _ need: AccessNeed?, _ body: (inout WriteTransaction, inout LogAppender, ObjectProjection) throws -> R
  ) throws(StoreError) -> R {
    let objects = try objects()
    if let need { try askImplicitly(need.service, reading: false) }
    return try recordingRefusal { () throws(StoreError) -> R in
      try StoreError.wrapping {
        try store.write(caller: identifiedCaller) { txn, appender in
          if let need { try checkAccess(need, in: txn) }
          return try body(&txn, &appender, objects)
        }
      }
    }
  }

  /// Runs `body` in one read snapshot with the object projection at hand. `body` checks what this
  /// session may see in that snapshot with ``sees(_:_:in:noting:)`` before it reads, noting in the
  /// ``ReadUses`` it is lent what it reads; once the snapshot is closed, a refusal is recorded
  /// (coalesced), else the uses are (``recordUses(_:)``) unless `records` is `false` (a read whose
  /// use was recorded before it). A refusal `body` passes on from a nested call of this facade was
  /// recorded by that call and passes through as it is.
  func read<R>(
    records: Bool = true, _ body: (borrowing ReadTransaction, ObjectProjection, ReadUses) throws -> R
  ) throws(StoreError) -> R {
    let objects = try objects()
    let uses = ReadUses()
    let outcome: Result<R, SnapshotRefusal> = try StoreError.wrapping {
      do {
        return .success(try store.environment.read { txn in try body(txn, objects, uses) })
      } catch let refusal as SnapshotRefusal {
        return .failure(refusal)
      }
    }
    switch outcome {
    case .success(let value):
      if records { try recordUses(uses) }
      return value
    case .failure(let refusal):
      return try recordingRefusal { () throws(StoreError) -> R in throw .access(refusal.denied) }
    }
  }

  /// Reads the items of `service` in one snapshot, access checked in it (``read(records:_:)``),
  /// the read recorded as a use of `operation`. A write-only session gets `hidden` (EventKit gives
  /// it no events), and its attempt is recorded like any refusal: it tried to read what it may not.
  func readItems<R>(
    _ service: Service, _ operation: String, hidden: R, records: Bool = true,
    _ body: (borrowing ReadTransaction, ObjectProjection, ReadUses) throws -> R
  ) throws(StoreError) -> R {
    try askImplicitly(service, reading: true)
    var writeOnly = false
    let result = try read(records: records) { txn, objects, uses in
      guard try sees(service, operation, in: txn, noting: uses) else {
        writeOnly = true
        return hidden
      }
      return try body(txn, objects, uses)
    }
    guard writeOnly, let client = sessionClient else { return result }
    if let failure = recordRefusal(client, service, .writeOnly, operation) {
      let denied = AccessError.accessDenied(client: client, service: service, status: .writeOnly, operation: operation)
      throw .access(.refusalNotRecorded(denied, reason: failure))
    }
    return result
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

  /// Checks a text field: at most 1 MiB, and no control characters but tab, line feed and carriage
  /// return (iCalendar cannot carry the others, and a NUL cuts the text short in C tools).
  static func checkText(_ text: String?, field: String) throws(StoreError) {
    guard let text else { return }
    if text.utf8.count > 1 << 20 {
      throw .calendar(.invalidText(field: field, reason: "is longer than 1 MiB"))
    }
    if let byte = text.utf8.first(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) {
      throw .calendar(
        .invalidText(
          field: field,
          reason: "holds the control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
        ))
    }
  }
}
