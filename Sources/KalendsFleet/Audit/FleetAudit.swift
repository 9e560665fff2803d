package import Kalends
internal import LMDB

/// The privacy audit of a fleet: the single store's `history`, `state` and `who-can`, answered
/// across every store the mirror holds, from its verified records only (the mirror commits nothing
/// it has not verified; a flagged store's records stop at the last one verified before the problem,
/// and its answers say so). Reads one snapshot per call, so it is safe beside a running mirror.
///
/// A record verified by its chain alone could have been published by anyone holding the store's
/// NATS password: only a checkpoint signed under the store's enrolled key says it is the store's.
/// So every answer says whether it rests on records past the store's last verified checkpoint
/// (`pending`); and for a store flagged because two of its logs disagree (a fork, a checkpoint over
/// other records), those records are withheld: the audit answers from the branch the store signed.
package struct FleetAudit {
  let files: MirrorFiles

  /// The audit of the mirror in `directory`; throws `FleetAuditError.noMirror` when there is
  /// none.
  package init(directory: String) throws {
    files = try MirrorFiles(directory: directory, create: false)
  }

  /// A store as the mirror holds it.
  package struct StoreSummary: Sendable, Hashable {
    package let store: StoreID
    /// How many of its records are held, all verified, from the first.
    package let verifiedSize: UInt64
    /// Whether it broke a rule: nothing after `verifiedSize` is taken of it.
    package let flagged: Bool
    /// The size of its last checkpoint verified.
    package let checkpoint: UInt64?
    /// Whether it was flagged because two of its logs disagree: its records past `checkpoint` are
    /// withheld from every answer.
    package var forked = false
  }

  /// A privacy fact of one store.
  package struct Entry: Sendable, Hashable {
    package let store: StoreID
    package let entry: AuditEntry
    /// The app's registered name in that store.
    package let app: String?
    /// Whether its record is past the store's last verified checkpoint: verified by its chain, not
    /// yet by the store's signature.
    package var pending = false
  }

  /// An app's access to a service in one store.
  package struct State: Sendable, Hashable {
    package let store: StoreID
    package let state: AccessState
    package let app: String?
    /// The names of the chosen calendars or contacts, in the order of `state.chosen`, as the store
    /// names them at the head of what is verified (the id of one removed since).
    package var chosenNames: [String]? = nil
    /// Whether it rests on records past the store's last verified checkpoint: the state replayed
    /// from the records the checkpoint covers is another, or there is none.
    package var pending = false
  }

  /// Every store held, by id.
  package func stores() throws -> [StoreSummary] {
    try files.environment.read { txn in try summaries(in: txn) }
  }

  /// Every store held, by id, in `txn`'s snapshot.
  private func summaries(in txn: borrowing ReadTransaction) throws -> [StoreSummary] {
    var found: [StoreSummary] = []
    try txn.withCursor(on: files.stores) { cursor in
      try cursor.forEach(withPrefix: []) { key, value in
        guard let store = StoreID(bytes: key) else { return }
        let state = Array(copying: value).first ?? 0
        let flagged = state != 0
        var size: UInt64 = 0
        try txn.withCursor(on: files.records) { records in
          // The last key of the store's records: its key with position 2⁶⁴−1 is past them all.
          if try records.seek(atMost: store.bytes + [UInt8](repeating: 0xFF, count: 8)) {
            let last = try records.currentKey()
            if last.starts(with: store.bytes) { size = BigEndianBytes.value(Array(last[16...])) }
          }
        }
        let checkpoint = try txn.value(forKey: store.bytes + [1], in: files.checkpoints).map(BigEndianBytes.value)
        var summary = StoreSummary(store: store, verifiedSize: size, flagged: flagged, checkpoint: checkpoint)
        summary.forked = state == 2
        found.append(summary)
      }
    }
    return found.sorted { $0.store < $1.store }
  }

  /// The privacy records of every store (of `store` alone when given), filtered as the store's
  /// `PrivacyAudit.history` filters (`since` inclusive, `until` exclusive); by time, then store, then
  /// position. With a client, one prefix of the mirror's index finds its records in every store.
  package func history(
    client: String? = nil, service: Service? = nil, store: StoreID? = nil, since: Timestamp? = nil,
    until: Timestamp? = nil
  ) throws -> [Entry] {
    var entries: [Entry] = []
    var names: [StoreID: [String: String]] = [:]
    try forEachIndexed(client: client, store: store) { held, kind, time, covered, record in
      // Registrations name the app in the rows of its store, whatever the window.
      let inWindow = time >= (since ?? time) && time < (until ?? Timestamp(rawValue: .max))
      guard inWindow || kind == .clientRegistered else { return }
      let bytes = try record()
      guard let entry = try AuditEntry.decoded(record: bytes.span.bytes) else { return }
      if entry.kind == .clientRegistered, let name = entry.name { names[held, default: [:]][entry.client] = name }
      guard inWindow, service == nil || entry.service == service else { return }
      var found = Entry(store: held, entry: entry, app: nil)
      found.pending = !covered
      entries.append(found)
    }
    // Each store's entries in the order things happened there, as its own audit orders them.
    var ordered: [Entry] = []
    for (_, held) in Dictionary(grouping: entries, by: \.store) {
      let placed = PrivacyAudit.inOrderOfOccurrence(held.map(\.entry))
      let pending = Dictionary(uniqueKeysWithValues: held.map { ($0.entry.position, $0.pending) })
      ordered += placed.map { entry in
        var named = Entry(store: held[0].store, entry: entry, app: names[held[0].store]?[entry.client])
        named.pending = pending[entry.position] ?? false
        return named
      }
    }
    return ordered.sorted {
      ($0.entry.occurred, $0.store, $0.entry.position) < ($1.entry.occurred, $1.store, $1.entry.position)
    }
  }

  /// The status of every app for every service in every store (or `store`) at `instant` (without
  /// one: at the head of what is verified), replayed from the records as the store's
  /// `PrivacyAudit.state(at:)` replays its projections; by store, then app, then service.
  package func state(at instant: Timestamp? = nil, store: StoreID? = nil) throws -> [State] {
    var replays: [StoreID: AccessReplay] = [:]
    // The same, from the records the store's last verified checkpoint covers: where the two
    // differ, the answer rests on records only the chain vouches for.
    var signed: [StoreID: AccessReplay] = [:]
    try forEachIndexed(client: nil, store: store) { held, _, _, covered, record in
      let bytes = try record()
      try replays[held, default: AccessReplay(at: instant)].apply(bytes.span.bytes)
      if covered { try signed[held, default: AccessReplay(at: instant)].apply(bytes.span.bytes) }
    }
    let names = try files.environment.read { txn in
      try Dictionary(uniqueKeysWithValues: replays.keys.map { ($0, try FleetNames.names(of: $0, in: txn, files)) })
    }
    return replays.sorted { $0.key < $1.key }.flatMap { held, replay in
      let vouched = Set(signed[held]?.states ?? [])
      return replay.states.map { state in
        var found = State(
          store: held, state: state, app: replay.names[state.client],
          chosenNames: state.chosen.map { $0.map { names[held]?[$0] ?? $0.description } })
        found.pending = !vouched.contains(state)
        return found
      }
    }
  }

  /// The apps that could use `service` at `instant`, store by store (see `AccessState.allows`).
  package func whoCan(_ service: Service, at instant: Timestamp? = nil, store: StoreID? = nil) throws -> [State] {
    try state(at: instant, store: store).filter { $0.state.allows(service) }
  }

  /// Hands each indexed record (of `client`'s, of `store`'s) to `body` in the index's order — by
  /// client, store, position — with its kind, its time, whether the store's last verified
  /// checkpoint covers it, and its bytes on demand. A store flagged because two of its logs
  /// disagree hands over only what its checkpoint covers.
  private func forEachIndexed(
    client: String?, store: StoreID?,
    _ body: (StoreID, RecordKind, Timestamp, Bool, () throws -> [UInt8]) throws -> Void
  ) throws {
    try files.environment.read { txn in
      let summaries = Dictionary(uniqueKeysWithValues: try self.summaries(in: txn).map { ($0.store, $0) })
      try txn.withCursor(on: files.audit) { cursor in
        try cursor.forEach(withPrefix: client.map { Array($0.utf8) + [0] } ?? []) { key, value in
          guard key.count > 24, let held = StoreID(bytes: Array(key[(key.count - 24)..<(key.count - 8)])),
            store == nil || held == store
          else { return }
          let bytes = Array(copying: value)
          guard bytes.count == 10 else { return }
          let time = Timestamp(rawValue: Int64(bitPattern: BigEndianBytes.value(bytes)))
          let kind = RecordKind(rawValue: UInt16(bytes[8]) << 8 | UInt16(bytes[9]))
          let recordKey = held.bytes + Array(key.suffix(8))
          let position = BigEndianBytes.value(Array(key.suffix(8)))
          let covered = position <= summaries[held]?.checkpoint ?? 0
          if summaries[held]?.forked == true, !covered { return }
          var record: [UInt8] = []
          try body(held, kind, time, covered) {
            if record.isEmpty { record = try txn.value(forKey: recordKey, in: files.records) ?? [] }
            return record
          }
        }
      }
    }
  }
}
