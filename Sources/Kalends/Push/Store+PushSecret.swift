internal import LMDB

extension Store {
  /// The store's push secret: 32 random bytes made at the first call and kept in the store's
  /// metadata — never in the log, which is shared with auditors; a backup keeps it. It seals the
  /// push subscriptions in the log, keys each app's topics, and is the seed of the store's VAPID
  /// key (`KalendsSync`'s `VAPID`), so that key too lives nowhere else.
  package func pushSecret() throws(StoreError) -> [UInt8] {
    let meta = self.meta
    let key = MetaKey.pushSecret
    let found = try StoreError.wrapping {
      try environment.read { txn in try txn.value(forKey: key, in: meta) }
    }
    if let found, found.count == Sodium.keyLength { return found }
    return try StoreError.wrapping {
      try environment.write { txn -> [UInt8] in
        // Another process may have made it since the read.
        if let stored = try txn.value(forKey: key, in: meta), stored.count == Sodium.keyLength { return stored }
        let secret = Sodium.randomBytes(Sodium.keyLength)
        try txn.put(secret, forKey: key, in: meta)
        return secret
      }
    }
  }
}
