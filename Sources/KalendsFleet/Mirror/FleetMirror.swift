import Foundation
package import Kalends
internal import LMDB

/// Holds the records an organisation's stores publish and verifies them, store by store, as
/// `kalends verify` verifies a store (`LogWalk`): positions in sequence, the hash chain, each
/// record's hash, the store's creation first, every record's authority, the Merkle tree. A message
/// is acknowledged only after what it brought is committed to the mirror's own LMDB, so a crash
/// loses nothing the stream gave. A store whose records break a rule, or that sends other bytes for
/// a position the mirror holds (a rewrite, a fork, a cloned store), is flagged with the evidence kept
/// and nothing more taken of it; a bundle that skips positions is an alert of a gap, and the mirror
/// asks the store to send its records again from the first missing position (on
/// `kal.ORG.STORE.resend`, which the store's next push answers).
package final class FleetMirror {
  package let subjects: FleetSubjects
  private let environment: Environment
  private let records: Database
  private let stores: Database
  private let alerts: Database
  /// The walk of each store over the records held, as far as they are verified.
  private var walks: [StoreID: LogWalk] = [:]
  private var flagged: Set<StoreID> = []
  /// The position each store was asked to send its records again from, in this run.
  private var requested: [StoreID: LogPosition] = [:]

  /// Opens (or creates) the mirror's database in `directory` and re-walks what it holds.
  package init(directory: String, subjects: FleetSubjects) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    environment = try Environment(
      path: directory, options: EnvironmentOptions(mapSize: 1 << 30, growsMapAutomatically: true, maxDatabases: 8))
    (records, stores, alerts) = try environment.write { txn in
      (
        try txn.openDatabase(named: "records", options: .create),
        try txn.openDatabase(named: "stores", options: .create),
        try txn.openDatabase(named: "alerts", options: .create)
      )
    }
    self.subjects = subjects
    try environment.read { txn in
      let now = Timestamp.now()
      try txn.withCursor(on: stores) { cursor in
        try cursor.forEach(withPrefix: []) { key, value in
          let store = StoreID(bytes: key)!
          let state = Array(copying: value)
          if state.first == 1 { flagged.insert(store) }
          var walk = LogWalk(storeID: store, now: now)
          try txn.withCursor(on: records) { held in
            try held.forEach(withPrefix: store.bytes) { key, value in
              let position = Array(key[16...])
              walk.check(key: position.span.bytes, value: value)
            }
          }
          walks[store] = walk
        }
      }
    }
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
  }

  /// Every store the mirror holds, by id.
  package func verdicts() -> [Verdict] {
    walks.map { store, walk in
      Verdict(
        store: store, verifiedSize: walk.head.position.rawValue, head: walk.head.hash, flagged: flagged.contains(store))
    }.sorted { $0.store.description < $1.store.description }
  }

  /// A problem the mirror found, with its evidence.
  package struct Alert: Sendable, Hashable {
    package enum Kind: String, Sendable {
      /// A bundle skipped positions: records are missing from the stream.
      case gap
      /// Other bytes for a position the mirror holds: the store's log was rewritten, forked or cloned.
      case fork
      /// A record broke a rule of the log (`IntegrityProblem`).
      case integrity
      /// A message that is no bundle of the store its subject names.
      case malformed
    }
    package let kind: Kind
    package let store: StoreID?
    package let position: LogPosition
    package let detail: String
    /// The stream sequence of the message that showed it.
    package let message: UInt64
  }

  /// Every alert raised, oldest first.
  package func alertList() throws -> [Alert] {
    try environment.read { txn in
      var found: [Alert] = []
      try txn.withCursor(on: alerts) { cursor in
        try cursor.forEach(withPrefix: []) { _, value in
          if let alert = Self.alert(Array(copying: value)) { found.append(alert) }
        }
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
    var taken: [(LogPosition, [UInt8])] = []
    if bundle.first.rawValue > held + 1 {
      alert = Alert(
        kind: .gap, store: store, position: LogPosition(held + 1),
        detail: "records \(held + 1)–\(bundle.first.rawValue - 1) are missing: the stream lost them", message: sequence)
    } else {
      // Positions held must come again byte for byte.
      let overlap = try environment.read { txn in
        try bundle.records.enumerated().prefix { bundle.first.rawValue + UInt64($0.offset) <= held }.first {
          index, record in
          let key = store.bytes + BigEndianBytes.of(bundle.first.rawValue + UInt64(index))
          return try txn.value(forKey: key, in: records) != record
        }?.offset
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
        }
      }
    }
    let flag = alert.map { $0.kind != .gap } ?? false
    let kept = taken
    let state: [UInt8] = [flag ? 1 : 0]
    try environment.write { txn in
      for (position, record) in kept {
        try txn.put(record, forKey: store.bytes + BigEndianBytes.of(position.rawValue), in: records)
      }
      try txn.put(state, forKey: store.bytes, in: stores)
      if let alert { try Self.put(alert, evidence: data, in: &txn, alerts) }
    }
    // A flagged store's walk stays at its last verified record: nothing more is taken of it.
    if flag { flagged.insert(store) }
    walks[store] = walk
    return alert?.kind == .gap ? (store, walk.head.position.next) : nil
  }

  /// Records `alert` for a message the mirror takes nothing of; nothing to ask for again.
  private func raise(_ alert: Alert) throws -> (StoreID, LogPosition)? {
    try environment.write { txn in try Self.put(alert, evidence: [], in: &txn, alerts) }
    return nil
  }

  private static func put(_ alert: Alert, evidence: [UInt8], in txn: inout WriteTransaction, _ alerts: Database) throws
  {
    let last = try txn.withCursor(on: alerts) { cursor in
      try cursor.last() ? BigEndianBytes.value(try cursor.currentKey()) : 0
    }
    let fields = [
      alert.kind.rawValue, alert.store?.description ?? "", String(alert.position.rawValue), String(alert.message),
      alert.detail,
    ]
    var value = Array(fields.joined(separator: "\u{1F}").utf8)
    value += [0] + evidence
    try txn.put(value, forKey: BigEndianBytes.of(last + 1), in: alerts)
  }

  private static func alert(_ value: [UInt8]) -> Alert? {
    let text = value.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
    let fields = String(decoding: text, as: UTF8.self).split(separator: "\u{1F}", omittingEmptySubsequences: false)
    guard fields.count == 5, let kind = Alert.Kind(rawValue: String(fields[0])),
      let position = UInt64(fields[2]), let message = UInt64(fields[3])
    else { return nil }
    return Alert(
      kind: kind, store: StoreID(uuid: String(fields[1])), position: LogPosition(position), detail: String(fields[4]),
      message: message)
  }
}

/// Big-endian bytes of positions and sequences: the keys of the mirror's databases.
enum BigEndianBytes {
  static func of(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
  static func value(_ bytes: [UInt8]) -> UInt64 { bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }
}
