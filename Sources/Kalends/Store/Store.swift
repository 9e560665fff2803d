internal import Foundation
package import LMDB
internal import Synchronization

/// A Kalends store: a directory holding one LMDB environment with the hash-chained log and, derived
/// from it, everything else.
///
/// Safe to share between threads and to open from several processes at once: writes are serialised
/// by LMDB's writer lock and every write is all or nothing, so the log stays gap-free and chained.
/// Writes of this process's threads that arrive while another commits share its successor's
/// commit (group commit), each in a nested transaction of its own.
public final class Store: Sendable {
  /// The layout version of the store's databases that this Kalends writes and reads.
  public static let layoutVersion: UInt32 = 1
  /// The software name and version written into new stores.
  public static let softwareVersion = "kalends 0.1.0"

  /// The store's directory.
  public let path: String
  /// The store's identity, fixed at creation.
  public let id: StoreID
  /// The options it was opened with.
  public let options: StoreOptions

  let environment: Environment
  let log: Database
  package let meta: Database
  /// The log's Merkle tree's stored nodes; `nil` only for a store from before the tree opened
  /// read-only.
  let nodes: MerkleNodes?
  /// The projections; `nil` only for a store opened read-only whose projections were never built.
  let projectionSet: ProjectionSet?
  /// The writes of this process's threads waiting to share a commit.
  let groupCommit = GroupCommit()
  /// The reads of apps this process served, counted on their way to the log (``UseTally``).
  let uses = UseTally()
  /// How far ``advanceClock(by:)`` moved this handle's clock, in microseconds.
  private let clockAdvance = Atomic<Int64>(0)

  /// The time this handle stamps its records with and judges what time brings by (a minute's
  /// counts, retention): the system clock, moved by ``StoreOptions/clockSkew`` and by
  /// ``advanceClock(by:)``.
  package func now() -> Timestamp {
    Timestamp(rawValue: options.now().rawValue &+ clockAdvance.load(ordering: .relaxed))
  }

  /// Moves this handle's clock forward by `microseconds`: for tests of what time brings, without
  /// waiting for it. Records stay in time order (a write is never stamped before the last).
  package func advanceClock(by microseconds: Int64) {
    clockAdvance.add(microseconds, ordering: .relaxed)
  }

  private init(
    path: String, id: StoreID, options: StoreOptions, environment: Environment, log: Database, meta: Database,
    tree: Database?, projections: ProjectionSet?
  ) {
    self.path = path
    self.id = id
    self.options = options
    self.environment = environment
    self.log = log
    self.meta = meta
    self.nodes = tree.map { MerkleNodes(tree: $0, log: log) }
    self.projectionSet = projections
  }

  deinit {
    // The counts of the apps' repeated reads this process served live in its memory: written as
    // it lets go of the store (a command of the CLI as it ends), so that only a crash loses them.
    guard !options.readOnly, uses.hasDue(before: .max) else { return }
    try? flushUses()
  }

  /// The projections, or an error saying how to build them.
  var projections: ProjectionSet {
    get throws(StoreError) {
      guard let projectionSet else { throw .projectionsUnavailable }
      return projectionSet
    }
  }

  // MARK: Opening

  /// Creates a new store in `path` (created if missing), whose first record is ``RecordKind/storeCreated``.
  ///
  /// Throws ``StoreError/storeAlreadyExists(path:)`` if `path` already holds a store.
  public static func create(at path: String, options: StoreOptions = StoreOptions()) throws(StoreError) -> Store {
    guard !options.readOnly else { throw .readOnly }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .fileSystem(
        "cannot create the store directory \(path): \(error.localizedDescription) — check the path and its permissions")
    }
    let environment = try openEnvironment(path, options)
    let id = StoreID.random()
    let (log, meta, tree, projections) = try StoreError.wrapping {
      try environment.write { txn -> (Database, Database, Database, ProjectionSet) in
        let log = try txn.openDatabase(named: MetaKey.logDatabase)
        let meta = try txn.openDatabase(named: MetaKey.metaDatabase)
        let tree = try txn.openDatabase(named: MetaKey.treeDatabase)
        if try txn.contains(MetaKey.storeID, in: meta) { throw StoreError.storeAlreadyExists(path: path) }
        let logStatistics = try txn.statistics(of: log)
        guard logStatistics.entries == 0 else {
          throw StoreError.notAStore(path: path, reason: "it has a log but no store identity")
        }
        try txn.put(Payload.bigEndianBytes(UInt64(layoutVersion)), forKey: MetaKey.layout, in: meta)
        try txn.put(id.bytes, forKey: MetaKey.storeID, in: meta)
        let projections = try ProjectionSet.open(in: &txn)
        var appender = LogAppender(
          log: log, head: .empty, timestamp: options.now(), projections: projections, frontier: TreeFrontier(),
          nodes: MerkleNodes(tree: tree, log: log))
        var payload = Payload()
        payload.append(tag: 1, bytes: id.bytes)
        payload.append(tag: 2, string: softwareVersion)
        try appender.append(RecordDraft(kind: .storeCreated, principal: .system, payload: payload), in: &txn)
        try saveHead(appender.head, meta: meta, in: &txn)
        let frontier = try appender.settleTree(in: &txn)
        try MerkleNodes.saveFrontier(frontier, meta: meta, in: &txn)
        try projections.saveCheckpoints(at: appender.head.position, meta: meta, in: &txn)
        if let signer = options.checkpointSigner {
          _ = try Self.signCheckpoint(
            frontier.head, nodes: MerkleNodes(tree: tree, log: log), origin: origin(of: id), signer: signer,
            in: &txn)
        }
        return (log, meta, tree, projections)
      }
    }
    return Store(
      path: path, id: id, options: options, environment: environment, log: log, meta: meta, tree: tree,
      projections: projections)
  }

  /// Opens the existing store in `path`.
  ///
  /// Opened writable, a store written by an earlier Kalends first gets what it lacks: the Merkle
  /// tree over its log (reported to `progress` as ``RebuildProgress/tree(done:total:)``) and
  /// projections at the head. Throws ``StoreError/storeNotFound(path:)`` when there is none.
  public static func open(
    at path: String, options: StoreOptions = StoreOptions(), progress: ((RebuildProgress) -> Void)? = nil
  ) throws(StoreError) -> Store {
    guard FileManager.default.fileExists(atPath: path + "/data.mdb") else { throw .storeNotFound(path: path) }
    let environment = try openEnvironment(path, options)
    do {
      return try open(environment, at: path, options: options, progress: progress)
    } catch .storage(.incompatible) {
      // Kalends opens every database with the flags it was created with: LMDB's catalog entry of
      // one of them was overwritten.
      throw .integrity(
        IntegrityProblem(
          position: .none, kind: .damagedPage,
          detail: "LMDB's catalog of databases is damaged (a database's flags no longer match)"))
    }
  }

  private static func open(
    _ environment: Environment, at path: String, options: StoreOptions, progress: ((RebuildProgress) -> Void)?
  ) throws(StoreError) -> Store {
    let opened: (Database, Database, StoreID) = try StoreError.wrapping {
      try environment.read { txn in
        let log: Database
        let meta: Database
        do {
          log = try txn.openDatabase(named: MetaKey.logDatabase)
          meta = try txn.openDatabase(named: MetaKey.metaDatabase)
        } catch LMDBError.notFound {
          throw StoreError.notAStore(path: path, reason: "it has no log")
        }
        guard let layoutBytes = try txn.value(forKey: MetaKey.layout, in: meta),
          let layout = PayloadField(tag: 1, value: layoutBytes).unsigned
        else { throw StoreError.notAStore(path: path, reason: "it has no layout version") }
        guard layout <= UInt64(layoutVersion) else {
          throw StoreError.unsupportedStoreFormat(found: UInt32(clamping: layout), supported: layoutVersion)
        }
        guard let idBytes = try txn.value(forKey: MetaKey.storeID, in: meta), let id = StoreID(bytes: idBytes) else {
          throw StoreError.notAStore(path: path, reason: "it has no store identity")
        }
        return (log, meta, id)
      }
    }
    let projections: ProjectionSet? = try StoreError.wrapping {
      if options.readOnly { return try environment.read { txn in try ProjectionSet.open(in: txn) } }
      return try environment.write { txn in try ProjectionSet.open(in: &txn) }
    }
    // A store from before the Merkle tree has no `tree` database: read-only, it has no tree (and
    // no proofs) until it is opened writable once.
    let tree: Database? = try StoreError.wrapping {
      if options.readOnly {
        return try environment.read { txn in
          do { return try txn.openDatabase(named: MetaKey.treeDatabase) } catch LMDBError.notFound { return nil }
        }
      }
      return try environment.write { txn in try txn.openDatabase(named: MetaKey.treeDatabase) }
    }
    let store = Store(
      path: path, id: opened.2, options: options, environment: environment, log: opened.0, meta: opened.1,
      tree: tree, projections: projections)
    if !options.readOnly {
      try store.catchUpTree(progress: progress)
      try store.catchUpProjections()
    }
    return store
  }

  /// Opens the store in `path`, creating it first when there is none.
  public static func openOrCreate(at path: String, options: StoreOptions = StoreOptions()) throws(StoreError) -> Store {
    do {
      return try open(at: path, options: options)
    } catch .storeNotFound {
      do {
        return try create(at: path, options: options)
      } catch .storeAlreadyExists {
        return try open(at: path, options: options)  // another process created it meanwhile
      }
    }
  }

  private static func openEnvironment(_ path: String, _ options: StoreOptions) throws(StoreError) -> Environment {
    let environment: Environment
    do {
      environment = try Environment(path: path, options: options.environmentOptions)
    } catch .invalid {
      throw .notAStore(path: path, reason: "data.mdb is not an LMDB file")
    } catch {
      if let damage = damageRefusingOpen(path) { throw .integrity(problem(damage)) }
      throw .storage(StorageFailure(error))
    }
    try checkFileLength(environment, path: path)
    return environment
  }

  // MARK: Writing

  /// Runs `body` in one write transaction with a log appender, saves the new head, and commits.
  ///
  /// Everything `body` appends commits together or not at all. `body` may run more than once (when
  /// the map grows), so it must only act through the transaction. Records by `caller`'s principal
  /// carry its evidence (record format version 2). Writes of this process's threads that arrive
  /// while another commits share one commit (``GroupCommit``), each still all or nothing: `body`
  /// may run on the thread of another writer while this one waits.
  package func write<R>(
    caller: (principal: Principal, evidence: CallerEvidence)? = nil,
    _ body: (inout WriteTransaction, inout LogAppender) throws -> R
  ) throws -> R {
    guard !options.readOnly else { throw StoreError.readOnly }
    let result = WriteResult<R>()
    try withoutActuallyEscaping(body) { body in
      // The writer waits until the leader has run `body` and set the outcome (a semaphore orders
      // the two), so lending the closure to the leader's thread shares nothing at once.
      nonisolated(unsafe) let body = body
      let job = GroupCommit.Job(caller: caller) { txn, appender in result.value = try body(&txn, &appender) }
      try groupCommit.submit(job) { group in commit(group) }
    }
    guard let value = result.value else { throw StoreError.invalidInput("a write committed without its result") }
    return value
  }

  /// The time a write stamps its records with: this writer's clock, but never earlier than the
  /// record before — time moves forward in the log — unless that record lies more than
  /// ``TimestampAnomaly/toleratedFuture`` ahead of this clock. A writer whose clock was set ahead
  /// then stamps its own records wrong, not every record after them until real time catches up;
  /// `verify` names those records (``TimestampAnomaly``) and the audit never lets one shadow a
  /// later decision.
  static func timestamp(now: Timestamp, after last: Timestamp?) -> Timestamp {
    guard let last else { return now }
    return last.rawValue > now.rawValue &+ TimestampAnomaly.toleratedFuture ? now : max(now, last)
  }

  /// Commits `group`'s writes in one transaction and sets each one's outcome: one write runs in
  /// the transaction itself; several run each in a nested transaction, so that one that throws is
  /// undone alone.
  private func commit(_ group: [GroupCommit.Job]) {
    var outcomes: [Result<Void, any Error>] = []
    var dueUses: [UseTally.Due] = []
    do {
      try StoreError.mappingStorageErrors {
        try environment.write { txn in
          outcomes = []
          let head = try Self.loadHead(meta: meta, in: txn)
          let last = try checkLogEnd(matches: head, in: txn)
          let projections = try projections
          try projections.checkCurrent(at: head.position, meta: meta, in: txn)
          let timestamp = Self.timestamp(now: now(), after: last)
          let (nodes, frontier) = try treeAtHead(head, in: &txn)
          var appender = LogAppender(
            log: log, head: head, timestamp: timestamp, projections: projections, frontier: frontier, nodes: nodes)
          appender.sealsContent = !options.writesLegacyRecords
          // Refusals counted in minutes that have ended reach the log with the first write after them.
          try RefusalTally.flush(before: RefusalTally.minute(of: appender.timestamp), meta: meta, &txn, &appender)
          try RequestTally.flush(before: RefusalTally.minute(of: appender.timestamp), meta: meta, &txn, &appender)
          // So do the counts of this process's repeated reads (``UseTally``), settled once committed.
          dueUses = uses.due(before: RefusalTally.minute(of: appender.timestamp))
          for due in dueUses { try appender.append(due.draft, in: &txn) }
          if group.count == 1 {
            appender.caller = group[0].caller
            appender.answerer = nil
            try group[0].run(&txn, &appender)
            outcomes.append(.success(()))
          } else {
            for job in group {
              let before = appender
              appender.caller = job.caller
              appender.answerer = nil
              do {
                try StoreError.mappingStorageErrors { try txn.nested { child in try job.run(&child, &appender) } }
                outcomes.append(.success(()))
              } catch {
                appender = before
                // An LMDB failure (a full map) fails the whole group, to be retried or reported.
                if txn.hasFailed { throw error }
                outcomes.append(.failure(error))
              }
            }
          }
          appender.caller = nil
          appender.answerer = nil
          if appender.hasAppended {
            let frontierAfter = try appender.settleTree(in: &txn)
            if let signer = options.checkpointSigner {
              _ = try Self.signCheckpoint(
                frontierAfter.head, nodes: nodes, origin: origin, signer: signer, known: frontier.head, in: &txn)
            }
            try MerkleNodes.saveFrontier(frontierAfter, meta: meta, in: &txn)
            try Self.saveHead(appender.head, meta: meta, in: &txn)
            try projections.saveCheckpoints(at: appender.head.position, meta: meta, in: &txn)
            LocalCommits.register(
              id, first: head.position.next, last: appender.head.position, lastHash: appender.head.hash)
          }
        }
      }
      uses.settle(dueUses, before: RefusalTally.minute(of: now()))
    } catch {
      outcomes = Array(repeating: .failure(error), count: group.count)
    }
    if outcomes.count != group.count {
      outcomes = Array(
        repeating: .failure(StoreError.invalidInput("a group commit lost track of a write")), count: group.count)
    }
    for (job, outcome) in zip(group, outcomes) { job.finish(outcome) }
  }

  /// Appends one record in its own transaction and returns its header once it is committed.
  ///
  /// Package-only: a record's kind and principal are checked against who may make it when it is
  /// replayed, but only the store's own verbs (``EventStore``, ``annotate(_:)``) decide them.
  @discardableResult
  package func append(_ draft: RecordDraft) throws(StoreError) -> LogRecordHeader {
    try StoreError.wrapping { try write { txn, appender in try appender.append(draft, in: &txn) } }
  }

  /// Appends `drafts` in order in one transaction (a group commit): all are committed, or none.
  @discardableResult
  package func append(contentsOf drafts: some Collection<RecordDraft>) throws(StoreError) -> [LogRecordHeader] {
    try StoreError.wrapping {
      try write { txn, appender in
        var headers: [LogRecordHeader] = []
        headers.reserveCapacity(drafts.count)
        // Arrays (the usual case) are walked through their buffer by code specialised for it; other
        // collections through the generic iterator, which costs a witness call per draft.
        let walked: Void? = try drafts.withContiguousStorageIfAvailable { buffer in
          for draft in buffer { headers.append(try appender.append(draft, in: &txn)) }
        }
        if walked == nil {
          for draft in drafts { headers.append(try appender.append(draft, in: &txn)) }
        }
        return headers
      }
    }
  }

  /// Writes a note by the person into the log, in its own durable transaction, and returns its
  /// header once committed. Notes mark what happened outside the store ("migrated from v0") and
  /// change no projection.
  @discardableResult
  public func annotate(_ text: String) throws(StoreError) -> LogRecordHeader {
    try append(.annotation(text))
  }

  /// Writes `texts` as notes by the person, in order, in one transaction: all are committed, or
  /// none.
  @discardableResult
  public func annotate(contentsOf texts: some Collection<String>) throws(StoreError) -> [LogRecordHeader] {
    try append(contentsOf: texts.map { RecordDraft.annotation($0) })
  }

  // MARK: Reading

  /// The last position and its hash.
  public func head() throws(StoreError) -> LogHead {
    try StoreError.wrapping { try environment.read { txn in try Self.loadHead(meta: meta, in: txn) } }
  }

  /// The record at `position`. Throws ``StoreError/recordNotFound(_:head:)`` outside `1...head`.
  public func record(at position: LogPosition) throws(StoreError) -> LogRecord {
    try StoreError.wrapping {
      try environment.read { txn in
        let record = try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log) { bytes in
          try RecordCodec.decode(bytes)
        }
        guard let record else {
          throw StoreError.recordNotFound(position, head: try Self.loadHead(meta: meta, in: txn).position)
        }
        return record
      }
    }
  }

  /// Up to `limit` records from `position` on, in order, each with its caller context
  /// (``LogRecord/identification``).
  public func records(from position: LogPosition, limit: Int) throws(StoreError) -> [LogRecord] {
    guard limit > 0 else { return [] }
    return try StoreError.wrapping {
      try environment.read { txn in
        var records: [LogRecord] = []
        try txn.withCursor(on: log) { cursor in
          guard try cursor.seek(atLeast: BigEndianKey(position.rawValue)) else { return }
          _ = try cursor.scanForward { _, value in
            records.append(try RecordCodec.decode(value))
            return records.count < limit ? .continue : .stop
          }
        }
        return records
      }
    }
  }

  /// The last `count` records (of `kinds` only, when given: read back from the head until that
  /// many are found), oldest first.
  public func lastRecords(_ count: Int, ofKinds kinds: Set<RecordKind>? = nil) throws(StoreError) -> [LogRecord] {
    guard count > 0 else { return [] }
    return try StoreError.wrapping {
      try environment.read { txn in
        var records: [LogRecord] = []
        _ = try txn.withCursor(on: log) { cursor in
          try cursor.scanBackward { _, value in
            let record = try RecordCodec.decode(value)
            if kinds?.contains(record.kind) ?? true { records.append(record) }
            return records.count < count ? .continue : .stop
          }
        }
        return records.reversed()
      }
    }
  }

  /// Visits the records from `position` on, in one consistent snapshot, decoding headers and lending
  /// payload bytes (valid only during the call) until `body` says ``ReplayDecision/stop``.
  /// Returns how many records were visited.
  ///
  /// Not API (`@_spi(Internals)`): the benchmark package measures the log's scan through it and the
  /// crash harness checks stores with it;
  /// readers use ``records(from:limit:)`` and ``LogRecord/fields()``.
  @_spi(Internals) @discardableResult
  public func replay(
    from position: LogPosition = 1, _ body: (LogRecordHeader, RawSpan) throws -> ReplayDecision
  ) throws(StoreError) -> Int {
    try StoreError.wrapping {
      try environment.read { txn in
        try txn.withCursor(on: log) { cursor in
          guard try cursor.seek(atLeast: BigEndianKey(position.rawValue)) else { return 0 }
          var principals = PrincipalCache()
          return try cursor.scanForward { _, value in
            let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
            return try body(decoded.header, value.extracting(decoded.payload)) == .continue ? .continue : .stop
          }
        }
      }
    }
  }

  /// Flushes everything committed to disk (useful after writing with relaxed durability).
  public func sync() throws(StoreError) {
    try StoreError.wrapping { try environment.sync(force: true) }
  }

  // MARK: Metadata

  static func loadHead(meta: Database, in txn: borrowing ReadTransaction) throws -> LogHead {
    try decodeHead(
      position: txn.value(forKey: MetaKey.head, in: meta), hash: txn.value(forKey: MetaKey.headHash, in: meta))
  }

  static func loadHead(meta: Database, in txn: borrowing WriteTransaction) throws -> LogHead {
    try decodeHead(
      position: txn.value(forKey: MetaKey.head, in: meta), hash: txn.value(forKey: MetaKey.headHash, in: meta))
  }

  private static func decodeHead(position: [UInt8]?, hash: [UInt8]?) throws -> LogHead {
    guard let position, let hash else { return .empty }
    guard let number = PayloadField(tag: 1, value: position).unsigned, let digest = RecordHash(bytes: hash) else {
      throw StoreError.integrity(
        IntegrityProblem(position: .none, kind: .headMismatch, detail: "the recorded head is malformed"))
    }
    return LogHead(position: LogPosition(number), hash: digest)
  }

  package static func saveHead(_ head: LogHead, meta: Database, in txn: inout WriteTransaction) throws {
    try txn.put(Payload.bigEndianBytes(head.position.rawValue), forKey: MetaKey.head, in: meta)
    try txn.put(head.hash.bytes, forKey: MetaKey.headHash, in: meta)
  }

  /// Refuses to append when the log's last key is not the recorded head (a damaged store).
  /// Checks that the log ends at `head`; returns the timestamp of its last record (`nil` when empty).
  private func checkLogEnd(matches head: LogHead, in txn: borrowing WriteTransaction) throws -> Timestamp? {
    let (last, timestamp): (UInt64, Timestamp?) = try txn.withCursor(on: log) { cursor in
      guard try cursor.last() else { return (0, nil) }
      return try cursor.withCurrent { key, value in
        (BigEndianKey<UInt64>(key)?.value ?? UInt64.max, RecordCodec.timestamp(of: value))
      }
    }
    guard last == head.position.rawValue else {
      throw StoreError.integrity(
        IntegrityProblem(
          position: LogPosition(min(last, head.position.rawValue) + 1), kind: .headMismatch,
          detail: "the recorded head is \(head.position) but the log ends at \(last)"))
    }
    return timestamp
  }
}

/// Names of the store's databases and metadata keys.
package enum MetaKey {
  static let logDatabase = "log"
  static let metaDatabase = "meta"
  static let layout = "layout"
  static let storeID = "storeId"
  static let head = "head"
  static let headHash = "headHash"
  /// The log's Merkle tree: its stored nodes (a database) and its right edge (a metadata key).
  static let treeDatabase = "tree"
  static let treeFrontier = "treeFrontier"
  /// Signed checkpoints of the tree, by tree size.
  package static let checkpointDatabase = "checkpoints"
  /// The secret under which the store server seals the positions it shows apps (`PositionSeal`).
  static let positionSealKey = "positionSealKey"
  /// The secret that seals push subscriptions, keys topics and seeds the VAPID key
  /// (``Store/pushSecret()``).
  static let pushSecret = "pushSecret"
  /// The time through which `kalends serve` has shown alarms (``Store/alarmsDelivered()``).
  static let alarmsDelivered = "alarmsDelivered"
}
