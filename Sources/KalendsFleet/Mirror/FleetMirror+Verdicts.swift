package import Kalends
internal import LMDB

/// What the mirror says of each store to the organisation: its verdicts in the bucket of verdicts,
/// cosigned when it has a key, and the alerts of a store that stopped checkpointing or whose
/// records are withheld.
extension FleetMirror {
  /// The verdict on `store` now: `signer`, when given, cosigns the store's latest verified
  /// checkpoint (a C2SP tlog-cosignature of the note's text).
  package func verdict(on store: StoreID, mirror: String, signer: CheckpointSigner?) throws -> FleetVerdict? {
    guard let walk = walks[store] else { return nil }
    let (note, alerts) = try environment.read { txn in
      let note = try txn.value(forKey: store.bytes + [3], in: checkpoints).flatMap {
        try? SignedNote(parsing: String(decoding: $0, as: UTF8.self))
      }
      var count = 0
      try txn.withCursor(on: self.alerts) { cursor in
        try cursor.forEach(withPrefix: []) { _, value in
          if Self.alert(Array(copying: value))?.store == store { count += 1 }
        }
      }
      return (note, count)
    }
    let cosigned = note.map { note in signer.map { note.adding($0.signature(of: Array(note.text.utf8))) } ?? note }
    return FleetVerdict(
      store: store, mirror: mirror, verifiedSize: walk.head.position.rawValue, head: walk.head.hash,
      flagged: flagged.contains(store), alerts: alerts, checkpoint: cosigned)
  }

  /// Puts in `bucket` the verdict on every store whose verdict changed since this mirror last put
  /// it (every store, the first time in a run); returns how many it put.
  package func publishVerdicts(to bucket: NATSKeyValue, mirror: String, signer: CheckpointSigner?) throws -> Int {
    var put = 0
    for store in walks.keys.sorted(by: { $0.description < $1.description }) {
      // Compared without the mirror's cosignature, whose time changes at each signing.
      guard let plain = try verdict(on: store, mirror: mirror, signer: nil), published[store] != plain,
        let verdict = signer == nil ? plain : try verdict(on: store, mirror: mirror, signer: signer)
      else { continue }
      try bucket.put(verdict.bytes, forKey: verdict.key)
      published[store] = plain
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
