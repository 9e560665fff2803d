package import Kalends
internal import LMDB

/// What the mirror says of each store to the organisation: its verdicts in the bucket of verdicts,
/// cosigned when it has a key, and the alerts of a store that stopped checkpointing or whose
/// records are withheld.
extension FleetMirror {
  /// The verdict on every store held, uncosigned, from one snapshot (alerts counted in one pass).
  package func verdicts(mirror: String) throws -> [FleetVerdict] {
    let (notes, alertCounts) = try environment.read { txn in
      var notes: [StoreID: SignedNote] = [:]
      for store in walks.keys {
        notes[store] = try txn.value(forKey: store.bytes + [3], in: checkpoints).flatMap {
          try? SignedNote(parsing: String(decoding: $0, as: UTF8.self))
        }
      }
      var counts: [StoreID: Int] = [:]
      try txn.withCursor(on: alerts) { cursor in
        try cursor.forEach(withPrefix: []) { _, value in
          if let store = Self.alert(Array(copying: value))?.store { counts[store, default: 0] += 1 }
        }
      }
      return (notes, counts)
    }
    return walks.keys.sorted().map { store in
      let walk = walks[store]!
      return FleetVerdict(
        store: store, mirror: mirror, verifiedSize: walk.head.position.rawValue, head: walk.head.hash,
        flagged: flagged.contains(store), alerts: alertCounts[store] ?? 0, checkpoint: notes[store])
    }
  }

  /// Puts in `bucket` the verdict on every store whose verdict changed since this mirror last put
  /// it (every store, the first time in a run), the store's checkpoint cosigned by `signer` (a C2SP
  /// tlog-cosignature of the note's text) when given; returns how many it put.
  package func publishVerdicts(to bucket: NATSKeyValue, mirror: String, signer: CheckpointSigner?) throws -> Int {
    var put = 0
    // Compared without the mirror's cosignature, whose time changes at each signing.
    for plain in try verdicts(mirror: mirror) where published[plain.store] != plain {
      let verdict = signer.map { plain.cosigned(by: $0) } ?? plain
      try bucket.put(verdict.bytes, forKey: verdict.key)
      published[plain.store] = plain
      put += 1
    }
    return put
  }

  /// Raises the alerts of what did not come: a store whose verified records run more than
  /// `checkpointWithin` past its last verified checkpoint (`stale`), and a store whose checkpoint
  /// waits for records the stream did not give (`withheld`, asking through `nats` for them again).
  /// An alert already raised for the same store and position is not raised again.
  package func review(nats: NATSConnection, checkpointWithin: UInt64?) throws {
    let raised = Set(try alertList().map { "\($0.kind.rawValue) \($0.store?.description ?? "") \($0.position)" })
    func raiseOnce(_ alert: Alert) throws {
      guard !raised.contains("\(alert.kind.rawValue) \(alert.store?.description ?? "") \(alert.position)") else {
        return
      }
      _ = try raise(alert)
    }
    for (store, walk) in walks where !flagged.contains(store) {
      let held = walk.head.position.rawValue
      let checkpoint = verifiedCheckpoints[store] ?? 0
      if let checkpointWithin, held > checkpoint + checkpointWithin {
        try raiseOnce(
          Alert(
            kind: .stale, store: store, position: LogPosition(checkpoint),
            detail:
              "\(held - checkpoint) records past the last verified checkpoint (\(checkpoint)), more than the "
              + "\(checkpointWithin) allowed: the store stopped checkpointing, or its checkpoints do not come",
            message: 0))
      }
      if let waiting = pendingCheckpoints[store], waiting.publishedSize > held {
        try raiseOnce(
          Alert(
            kind: .withheld, store: store, position: LogPosition(held + 1),
            detail:
              "the store signed a checkpoint over \(waiting.publishedSize) records and the stream gave \(held): "
              + "records withheld, by the store or on the way; asked for again",
            message: 0))
        _ = try nats.publish(
          Array(String(held + 1).utf8), to: subjects.resends(of: store),
          messageID: "\(store):resend:\(held + 1):withheld")
      }
    }
  }
}
