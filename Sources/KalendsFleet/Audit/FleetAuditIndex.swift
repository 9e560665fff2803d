import Kalends
internal import LMDB

/// The mirror's index of what the fleet's audit reads: every verified record that concerns an app
/// (`AccessReplay.concern(of:)`: its privacy records, the calendars and contacts it created), keyed
/// `client ‖ 0 ‖ store (16) ‖ position (8)` → time (8) ‖ kind (2), written in the transaction that commits the
/// record. An app's history across the fleet is one prefix of it, whatever the records held.
enum FleetAuditIndex {
  static let built: [UInt8] = Array("audit-index".utf8)

  /// The index's entry for `record` (a verified record of `store` at `position`), when it has one.
  static func entry(_ record: [UInt8], store: StoreID, position: UInt64) -> (key: [UInt8], value: [UInt8])? {
    // A verified record decodes; one that does not is no app's.
    guard let concern = try? AccessReplay.concern(of: record.span.bytes) else { return nil }
    let key = Array(concern.client.utf8) + [0] + store.bytes + BigEndianBytes.of(position)
    let kind = concern.kind.rawValue
    return (
      key, BigEndianBytes.of(UInt64(bitPattern: concern.timestamp.rawValue)) + [UInt8(kind >> 8), UInt8(kind & 0xFF)]
    )
  }

  /// Adds `record`'s entry, when it has one.
  static func add(
    _ record: [UInt8], store: StoreID, position: UInt64, in txn: inout WriteTransaction, _ files: MirrorFiles
  ) throws {
    guard let (key, value) = entry(record, store: store, position: position) else { return }
    try txn.put(value, forKey: key, in: files.audit)
  }

  /// Indexes every record held, once: a mirror of an earlier version kept records without it.
  static func build(_ files: MirrorFiles) throws {
    guard try files.environment.read({ txn in try txn.value(forKey: built, in: files.meta) }) == nil else { return }
    try files.environment.write { txn in
      var entries: [([UInt8], [UInt8])] = []
      try txn.withCursor(on: files.records) { cursor in
        try cursor.forEach(withPrefix: []) { key, value in
          guard key.count == 24, let store = StoreID(bytes: Array(key.prefix(16))) else { return }
          if let entry = entry(Array(copying: value), store: store, position: BigEndianBytes.value(Array(key[16...]))) {
            entries.append(entry)
          }
        }
      }
      for (key, value) in entries { try txn.put(value, forKey: key, in: files.audit) }
      try txn.put([UInt8]([1]), forKey: built, in: files.meta)
    }
  }
}
