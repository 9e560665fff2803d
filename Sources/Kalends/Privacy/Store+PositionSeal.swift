internal import LMDB

extension Store {
  /// The seal of the positions the store server shows apps, under the store's secret: 32 random
  /// bytes made at the first call and kept in the store's metadata (never in the log, which is
  /// shared with auditors).
  package func positionSeal() throws(StoreError) -> PositionSeal {
    let meta = self.meta
    let key = MetaKey.positionSealKey
    let found = try StoreError.wrapping {
      try environment.read { txn in try txn.value(forKey: key, in: meta) }
    }
    if let found, found.count == Sodium.keyLength { return PositionSeal(key: found) }
    let made = try StoreError.wrapping {
      try environment.write { txn -> [UInt8] in
        // Another process may have made it since the read.
        if let stored = try txn.value(forKey: key, in: meta), stored.count == Sodium.keyLength {
          return stored
        }
        let secret = Sodium.randomBytes(Sodium.keyLength)
        try txn.put(secret, forKey: key, in: meta)
        return secret
      }
    }
    return PositionSeal(key: made)
  }
}
