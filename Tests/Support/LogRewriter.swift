package import Kalends
import LMDB
import Testing

/// The attacker of issue 29: someone who can write a closed store's files rewrites its history
/// and covers every track a store can check by itself — re-encodes the records in their new
/// order and positions, re-chains them, rebuilds the Merkle tree and its right edge and moves the
/// head. Only a checkpoint kept outside the store can tell.
package enum LogRewriter {
  /// A record as the attacker edits it: who, what, when.
  package struct Entry {
    package var kind: RecordKind
    package var principal: Principal
    package var payload: Payload
    package var timestamp: Timestamp
    /// The stored bytes of a record whose content was erased: moved as they are (its position and
    /// previous hash rewritten, its hash recomputed from what is left), since its content is gone.
    package var erased: [UInt8]? = nil
  }

  /// The stored bytes of the closed store's records from `position` on, as its log holds them
  /// (what an attacker with the store's files, and its NATS credentials, could publish).
  package static func records(_ path: String, from position: Int) throws -> [[UInt8]] {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let log = try environment.openDatabase(named: "log", options: [])
    return try environment.read { txn in
      var records: [[UInt8]] = []
      try txn.withCursor(on: log) { cursor in
        guard try cursor.seek(atLeast: BigEndianKey(UInt64(position))) else { return }
        _ = try cursor.scanForward { _, value in
          records.append(Array(copying: value))
          return .continue
        }
      }
      return records
    }
  }

  /// Removes every checkpoint the closed store at `path` kept, as the attacker must before the
  /// store signs its rewritten log.
  package static func forgetCheckpoints(_ path: String) throws {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let checkpoints = try environment.openDatabase(named: MetaKey.checkpointDatabase, options: [])
    try environment.write { txn in try txn.removeAll(in: checkpoints) }
  }

  /// Replaces the log of the closed store at `path` with `edit` applied to its records.
  package static func rewrite(_ path: String, _ edit: (inout [Entry]) throws -> Void) throws {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let log = try environment.openDatabase(named: "log", options: [])
    let meta = try environment.openDatabase(named: "meta", options: [])
    let tree = try environment.openDatabase(named: "tree", options: [])
    try environment.write { txn in
      var entries: [Entry] = []
      try txn.withCursor(on: log) { cursor in
        try cursor.scanForward { _, value in
          let record = try RecordCodec.decode(value)
          entries.append(
            Entry(
              kind: record.kind, principal: record.principal, payload: record.payload, timestamp: record.timestamp,
              erased: record.header.content == .present ? nil : Array(copying: value)))
          return .continue
        }
      }
      try edit(&entries)
      try txn.removeAll(in: log)
      try txn.removeAll(in: tree)
      var previous = RecordHash.genesis
      var frontier = TreeFrontier()
      var buffer: [UInt8] = []
      let nodes = MerkleNodes(tree: tree, log: log)
      for (index, entry) in entries.enumerated() {
        let position = LogPosition(UInt64(index + 1))
        let hash: RecordHash
        if var bytes = entry.erased {
          withUnsafeBytes(of: position.rawValue.bigEndian) { bytes.replaceSubrange(1..<9, with: $0) }
          bytes.replaceSubrange((bytes.count - 64)..<(bytes.count - 32), with: previous.bytes)
          hash = bytes.withUnsafeBytes {
            RecordCodec.leafHash(UnsafeRawBufferPointer(rebasing: $0[..<($0.count - 32)]))
          }
          bytes.replaceSubrange((bytes.count - 32)..., with: hash.bytes)
          try txn.put(bytes, forKey: BigEndianKey(position.rawValue), in: log)
        } else {
          hash = RecordCodec.encode(
            into: &buffer, position: position, timestamp: entry.timestamp,
            draft: RecordDraft(kind: entry.kind, principal: entry.principal, payload: entry.payload),
            previousHash: previous)
          try txn.put(Array(buffer.dropFirst()), forKey: BigEndianKey(position.rawValue), in: log)
        }
        try frontier.append(hash) { height, index, node in try nodes.put(height, index, node, in: &txn) }
        previous = hash
      }
      try Store.saveHead(LogHead(position: LogPosition(UInt64(entries.count)), hash: previous), meta: meta, in: &txn)
      try MerkleNodes.saveFrontier(frontier, meta: meta, in: &txn)
    }
  }

  /// The first decision's status turned into full access: a grant the person never gave, written
  /// into the record as the attacker re-encodes it.
  package static func grantTheFirstDecision(_ entries: inout [Entry]) throws {
    let decision = try #require(entries.indices.first { entries[$0].kind == .accessDecided })
    var payload = Payload()
    for field in try entries[decision].payload.fields() {
      if field.tag == 3 {
        payload.append(tag: 3, unsigned: UInt64(AuthorizationStatus.fullAccess.rawValue))
      } else {
        payload.append(tag: field.tag, bytes: field.value)
      }
    }
    entries[decision].payload = payload
  }
}
