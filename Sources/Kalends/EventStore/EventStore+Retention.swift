internal import LMDB

extension EventStore {
  /// The retention policy in force; `nil` when none is (never set, or turned off).
  public func retentionPolicy() throws(StoreError) -> RetentionPolicy? {
    let retention = try store.projection(RetentionProjection.self)
    return try StoreError.wrapping { try store.environment.read { try retention.policy(in: $0) } }
  }

  /// The work of `PrivacySettings.setRetention`, checked for the person again.
  @discardableResult
  func setRetention(removedAfterSeconds seconds: Int64?) throws(StoreError) -> RetentionPolicy? {
    try requireOwner("set the retention policy")
    let value = seconds ?? 0
    guard value >= 0, UInt64(value) <= RetentionPolicy.longest else {
      throw .invalidInput("a retention period must be between 0 and 100 years, not \(value) seconds")
    }
    var payload = Payload()
    payload.append(tag: 1, unsigned: UInt64(value))
    _ = try write(nil) { txn, appender, _ in
      try appender.append(RecordDraft(kind: .retentionSet, principal: .person, payload: payload), in: &txn)
    }
    return try retentionPolicy()
  }

  /// The work of `PrivacySettings.applyRetention`, checked for the person again.
  @discardableResult
  func applyRetention(now: Timestamp? = nil) throws(StoreError) -> [Erasure] {
    try requireOwner("apply the retention policy")
    guard let policy = try retentionPolicy() else { return [] }
    let cutoff = (now ?? store.now()).rawValue &- policy.removedAfterSeconds * 1_000_000
    let objects = try objects()
    let book = try contactsBook()
    let range = try store.projection(RangeProjection.self)
    let log = store.log
    let (seen, due, carried) = try StoreError.wrapping {
      try store.environment.read { txn in
        let head = try Store.loadHead(meta: store.meta, in: txn).position
        var due: [ErasableItem] = []
        try txn.withCursor(on: objects.objects) { cursor in
          guard try cursor.first() else { return }
          try cursor.scanForward { key, value in
            let stored = try StoredObject(entry: value)
            let bytes = Array(copying: key)
            if !stored.isLive, stored.modified.rawValue < cutoff, let kind = ObjectKind(rawValue: bytes[0]),
              let id = ObjectID(bytes: bytes[1...]), let item = ErasableItem(kind, id)
            {
              due.append(item)
            }
            return .continue
          }
        }
        try txn.withCursor(on: book.objects) { cursor in
          guard try cursor.first() else { return }
          try cursor.scanForward { key, value in
            let stored = try StoredContact(entry: value)
            let bytes = Array(copying: key)
            if !stored.isLive, stored.modified.rawValue < cutoff, let kind = ContactObjectKind(rawValue: bytes[0]),
              let id = ObjectID(bytes: bytes[1...])
            {
              due.append(ErasableItem(kind, id))
            }
            return .continue
          }
        }
        return (head, due, try Self.positions(carrying: due, in: log, after: .none, txn: txn))
      }
    }
    let pending = due.filter { carried[$0] != nil }
    guard !pending.isEmpty else { return [] }
    let days = policy.removedAfterSeconds / 86_400
    let reason =
      days * 86_400 == policy.removedAfterSeconds
      ? "retention: removed more than \(days) day\(days == 1 ? "" : "s") ago"
      : "retention: removed more than \(policy.removedAfterSeconds) seconds ago"
    return try write(nil) { txn, appender, _ in
      let later = try txn.reading { try Self.positions(carrying: pending, in: log, after: seen, txn: $0) }
      return try pending.map { item in
        try Self.eraseContent(
          of: item, at: (carried[item] ?? []) + (later[item] ?? []), removal: nil, by: .system, reason: reason,
          policy: policy.setAt, range: range, &txn, &appender)
      }.filter { $0.record != nil }
    }
  }
}
