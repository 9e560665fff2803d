import Kalends
internal import LMDB

/// The names of every store's live calendars and contacts at the head of what is verified, so that
/// the fleet's audit names what an app was given as the store's own audit does: kept in the
/// mirror's `names` database (`store (16) ‖ object (16)` → the name), written in the transaction
/// that commits the record (`ObjectNaming`: a save names, a removal unnames). An object erased was
/// removed first, so what the person erased is never named here.
enum FleetNames {
  static let built: [UInt8] = Array("names-index".utf8)

  /// Applies `record` of `store` to the names, when it names or unnames an object.
  static func apply(_ record: [UInt8], store: StoreID, in txn: inout WriteTransaction, _ files: MirrorFiles) throws {
    // A verified record decodes; one that does not names nothing.
    guard let change = try? ObjectNaming.change(in: record.span.bytes) else { return }
    switch change {
    case .named(let id, let name): try txn.put(Array(name.utf8), forKey: store.bytes + id.bytes, in: files.names)
    case .removed(let id): _ = try txn.delete(store.bytes + id.bytes, in: files.names)
    }
  }

  /// The names of `store`'s live calendars and contacts.
  static func names(of store: StoreID, in txn: borrowing ReadTransaction, _ files: MirrorFiles) throws -> [ObjectID:
    String]
  {
    var names: [ObjectID: String] = [:]
    try txn.withCursor(on: files.names) { cursor in
      try cursor.forEach(withPrefix: store.bytes) { key, value in
        guard let id = ObjectID(bytes: Array(key.dropFirst(16))) else { return }
        names[id] = String(decoding: Array(copying: value), as: UTF8.self)
      }
    }
    return names
  }

  /// Names from every record held, once: a mirror of an earlier version kept records without them.
  static func build(_ files: MirrorFiles) throws {
    guard try files.environment.read({ txn in try txn.value(forKey: built, in: files.meta) }) == nil else { return }
    try files.environment.write { txn in
      var held: [(StoreID, [UInt8])] = []
      try txn.withCursor(on: files.records) { cursor in
        try cursor.forEach(withPrefix: []) { key, value in
          guard key.count == 24, let store = StoreID(bytes: Array(key.prefix(16))) else { return }
          if (try? ObjectNaming.change(in: value)) ?? nil != nil { held.append((store, Array(copying: value))) }
        }
      }
      for (store, record) in held { try apply(record, store: store, in: &txn, files) }
      try txn.put([UInt8]([1]), forKey: built, in: files.meta)
    }
  }
}
