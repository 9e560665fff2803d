import Foundation
package import Kalends
internal import LMDB

/// Holds the records an organisation's stores publish and verifies them, store by store, as
/// `kalends verify` verifies a store (`LogWalk`): positions in sequence, the hash chain, each
/// record's hash, the store's creation first, every record's authority, the Merkle tree. A
/// `contentErased` record erases the mirror's copies of the records it names, in the transaction
/// that takes it, as the store erased its own (a copy kept is the content the person erased); a
/// held record that comes again in its erased form is erased too, and one that comes again in the
/// form it had before is kept erased. A message
/// is acknowledged only after what it brought is committed to the mirror's own LMDB, so a crash
/// loses nothing the stream gave. A store whose records break a rule, or that sends other bytes for
/// a position the mirror holds (a rewrite, a fork, a cloned store), is flagged with the evidence kept
/// and nothing more taken of it; a bundle that skips positions is an alert of a gap, and the mirror
/// asks the store to send its records again from the first missing position (on
/// `kal.ORG.STORE.resend`, which the store's next push answers).
package final class FleetMirror {
  package let subjects: FleetSubjects
  /// The mirror's LMDB files (`MirrorFiles` lists the databases).
  let files: MirrorFiles
  var environment: Environment { files.environment }
  var records: Database { files.records }
  var stores: Database { files.stores }
  var alerts: Database { files.alerts }
  var checkpoints: Database { files.checkpoints }
  /// The keys the organisation enrolled for its stores' checkpoints, and its witness policy.
  package let trust: FleetTrust
  /// The walk of each store over the records held, as far as they are verified.
  var walks: [StoreID: LogWalk] = [:]
  var flagged: Set<StoreID> = []
  /// The position each store was asked to send its records again from, in this run.
  private var requested: [StoreID: LogPosition] = [:]
  /// The size of each store's last verified checkpoint.
  var verifiedCheckpoints: [StoreID: UInt64] = [:]
  /// Each store's checkpoint waiting for the records its proof leads to.
  var pendingCheckpoints: [StoreID: CheckpointMessage] = [:]
  /// The verdict last put in the bucket of verdicts for each store in this run, uncosigned.
  var published: [StoreID: FleetVerdict] = [:]

  /// Opens (or creates) the mirror's database in `directory`, trusting checkpoints as `trust` says,
  /// and re-walks what it holds.
  package init(directory: String, subjects: FleetSubjects, trust: FleetTrust = FleetTrust()) throws {
    files = try MirrorFiles(directory: directory, create: true)
    self.subjects = subjects
    self.trust = trust
    try environment.read { txn in
      let now = Timestamp.now()
      try txn.withCursor(on: stores) { cursor in
        try cursor.forEach(withPrefix: []) { key, value in
          let store = StoreID(bytes: key)!
          let state = Array(copying: value)
          if (state.first ?? 0) != 0 { flagged.insert(store) }
          walks[store] = try Self.walk(store, through: .max, in: txn, files.records, now: now)
        }
      }
      try txn.withCursor(on: checkpoints) { cursor in
        try cursor.forEach(withPrefix: []) { key, value in
          guard let store = StoreID(bytes: Array(key.prefix(16))), key.count == 17 else { return }
          let bytes = Array(copying: value)
          if key[16] == 1 { verifiedCheckpoints[store] = BigEndianBytes.value(bytes) }
          if key[16] == 2 { pendingCheckpoints[store] = try? CheckpointMessage(bytes: bytes) }
        }
      }
    }
  }

  /// The walk of `store`'s records held in `records`, from the first through position `size` (or
  /// the last held).
  static func walk(
    _ store: StoreID, through size: UInt64, in txn: borrowing ReadTransaction, _ records: Database, now: Timestamp
  ) throws -> LogWalk {
    var walk = LogWalk(storeID: store, now: now)
    try txn.withCursor(on: records) { held in
      guard try held.seek(atLeast: store.bytes) else { return }
      _ = try held.scanForward { key, value in
        let bytes = Array(copying: key)
        let position = Array(bytes.dropFirst(16))
        guard bytes.starts(with: store.bytes), BigEndianBytes.value(position) <= size else { return .stop }
        walk.check(key: position.span.bytes, value: value)
        return .continue
      }
    }
    return walk
  }

  /// One store as the mirror holds it.
  package struct Verdict: Sendable, Hashable {
    package let store: StoreID
    /// The records held and verified, from the first.
    package let verifiedSize: UInt64
    /// The hash of the last of them.
    package let head: RecordHash
    /// Whether the store broke a rule: nothing more is taken of it.
    package let flagged: Bool
    /// The tree size of the last checkpoint of the store verified: signed by its enrolled key (and
    /// its witnesses), with the root of the records held.
    package let checkpoint: UInt64?
  }

  /// Every store the mirror holds, by id.
  package func verdicts() -> [Verdict] {
    walks.map { store, walk in
      Verdict(
        store: store, verifiedSize: walk.head.position.rawValue, head: walk.head.hash, flagged: flagged.contains(store),
        checkpoint: verifiedCheckpoints[store])
    }.sorted { $0.store < $1.store }
  }

  /// The records held of `store`, from the first, in the form held.
  package func heldRecords(of store: StoreID) throws -> [[UInt8]] {
    try environment.read { txn in
      var found: [[UInt8]] = []
      try txn.withCursor(on: records) { cursor in
        try cursor.forEach(withPrefix: store.bytes) { _, value in found.append(Array(copying: value)) }
      }
      return found
    }
  }

  /// Takes the messages of the stream from `subscription` until none comes for `idle`, asking
  /// through `nats` for records to be sent again where a gap shows (once per gap in a run); returns
  /// how many it took.
  package func drain(_ subscription: NATSPullSubscription, nats: NATSConnection, idle: Duration = .seconds(1)) throws
    -> Int
  {
    var taken = 0
    while true {
      let messages = try subscription.fetch(batch: 64, timeout: idle)
      if messages.isEmpty { return taken }
      for message in messages {
        if let (store, from) = try take(subject: message.subject, sequence: message.sequence, data: message.data),
          requested[store] != from
        {
          _ = try nats.publish(
            Array(String(from.rawValue).utf8), to: subjects.resends(of: store),
            messageID: "\(store):resend:\(from.rawValue):\(message.sequence)")
          requested[store] = from
        }
        try message.acknowledge()
        taken += 1
      }
    }
  }

  /// Takes one message: verifies the records it brings that follow those held, and commits them
  /// with any alert in one transaction. Returns the store and the position to ask it to send its
  /// records again from when the message showed a gap.
  @discardableResult
  package func take(subject: String, sequence: UInt64, data: [UInt8]) throws -> (StoreID, LogPosition)? {
    // The requests to send records again are the mirror's own.
    if subjects.store(of: subject, kind: "resend") != nil { return nil }
    if let store = subjects.store(of: subject, kind: "ckpt") {
      return try takeCheckpoint(store, sequence: sequence, data: data)
    }
    guard let store = subjects.store(of: subject) else {
      return try raise(
        Alert(kind: .malformed, store: nil, position: .none, detail: "a message on \(subject)", message: sequence))
    }
    let bundle: RecordBundle
    do {
      bundle = try RecordBundle(bytes: data)
      guard bundle.store == store else {
        return try raise(
          Alert(
            kind: .malformed, store: store, position: .none, detail: "a bundle of \(bundle.store) on \(subject)",
            message: sequence))
      }
    } catch let error as RecordBundle.Malformed {
      return try raise(
        Alert(kind: .malformed, store: store, position: .none, detail: error.description, message: sequence))
    }
    if flagged.contains(store) { return nil }
    var walk = walks[store] ?? LogWalk(storeID: store, now: Timestamp.now())
    let held = walk.head.position.rawValue
    var alert: Alert?
    var outcome: CheckpointOutcome?
    var taken: [(LogPosition, [UInt8])] = []
    /// The positions whose copies are erased in this transaction.
    var erased: [UInt64] = []
    if bundle.first.rawValue > held + 1 {
      alert = Alert(
        kind: .gap, store: store, position: LogPosition(held + 1),
        detail: "records \(held + 1)–\(bundle.first.rawValue - 1) are missing: the stream lost them", message: sequence)
    } else {
      // Positions held must come again as they are held, or in the form the erasure of their
      // content leaves (the store erased it since): then the held copy is erased too.
      var overlap: Int?
      try environment.read { txn in
        for (index, record) in bundle.records.enumerated() {
          let position = bundle.first.rawValue + UInt64(index)
          guard position <= held else { break }
          let copy = try txn.value(forKey: store.bytes + BigEndianBytes.of(position), in: records)
          guard let copy, copy != record else { continue }
          if RecordForms.erased(copy) == record {
            erased.append(position)
          } else if RecordForms.erased(record) != copy {
            overlap = index
            break
          }
        }
      }
      if let index = overlap {
        let position = LogPosition(bundle.first.rawValue + UInt64(index))
        alert = Alert(
          kind: .fork, store: store, position: position,
          detail:
            "the record at \(position) differs from the one held: the store's log was rewritten, forked or cloned",
          message: sequence)
      } else {
        for (index, record) in bundle.records.enumerated() {
          let position = LogPosition(bundle.first.rawValue + UInt64(index))
          guard position.rawValue > held else { continue }
          let key = BigEndianBytes.of(position.rawValue)
          walk.check(key: key.span.bytes, value: record.span.bytes)
          if let problem = walk.problem {
            alert = Alert(
              kind: .integrity, store: store, position: problem.position, detail: problem.description, message: sequence
            )
            break
          }
          taken.append((position, record))
          // An erasure: the copies of the records it names are erased with it.
          erased += walk.erasedByLast
          // A checkpoint waiting for this tree: its signed root must be the records' root.
          if let waiting = pendingCheckpoints[store], waiting.publishedSize == position.rawValue {
            outcome = checked(waiting, store, against: walk.frontier.head, sequence: sequence)
            if let failure = outcome?.alert {
              alert = failure
              break
            }
          }
        }
      }
    }
    let flag = alert?.flags ?? false
    let kept = taken
    let erasures = erased
    let state: [UInt8] = [flag ? alert?.flagState ?? 1 : 0]
    let settled = outcome
    try environment.write { txn in
      for (position, record) in kept {
        try txn.put(record, forKey: store.bytes + BigEndianBytes.of(position.rawValue), in: records)
        try FleetAuditIndex.add(record, store: store, position: position.rawValue, in: &txn, files)
        try FleetNames.apply(record, store: store, in: &txn, files)
      }
      for position in erasures {
        let key = store.bytes + BigEndianBytes.of(position)
        if let copy = try txn.value(forKey: key, in: records), let form = RecordForms.erased(copy) {
          try txn.put(form, forKey: key, in: records)
        }
      }
      try txn.put(state, forKey: store.bytes, in: stores)
      if let settled { try record(settled, store, in: &txn) }
      if let alert { try Self.put(alert, evidence: data, in: &txn, alerts) }
    }
    if let settled { remember(settled, store) }
    // A flagged store's walk stays at its last verified record: nothing more is taken of it.
    if flag { flagged.insert(store) }
    walks[store] = walk
    return alert?.kind == .gap ? (store, walk.head.position.next) : nil
  }
}

/// Big-endian bytes of positions and sequences: the keys of the mirror's databases.
enum BigEndianBytes {
  static func of(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
  static func value(_ bytes: [UInt8]) -> UInt64 { bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }
}
