package import LMDB

/// Which version of a projection is stored and the last log position applied to it.
///
/// Stored in the `meta` database under `projection:<name>`: the version (4 bytes big-endian), then
/// the position (8 bytes big-endian).
package struct ProjectionCheckpoint: Hashable, Sendable {
  /// The projection version its databases hold.
  package var version: UInt32
  /// The last position applied.
  package var position: LogPosition

  /// The metadata key of a projection's checkpoint.
  static func key(_ name: String) -> String { "projection:" + name }

  package init(version: UInt32, position: LogPosition) {
    self.version = version
    self.position = position
  }

  init?(bytes: [UInt8]) {
    guard bytes.count == 12 else { return nil }
    version = bytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
    position = LogPosition(bytes[4..<12].reduce(0) { $0 << 8 | UInt64($1) })
  }

  var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(12)
    RecordCodec.appendBigEndian(version, to: &out)
    RecordCodec.appendBigEndian(position.rawValue, to: &out)
    return out
  }

  static func load(_ name: String, meta: Database, in txn: borrowing WriteTransaction) throws -> ProjectionCheckpoint? {
    try txn.value(forKey: key(name), in: meta).flatMap(ProjectionCheckpoint.init(bytes:))
  }

  static func load(_ name: String, meta: Database, in txn: borrowing ReadTransaction) throws -> ProjectionCheckpoint? {
    try txn.value(forKey: key(name), in: meta).flatMap(ProjectionCheckpoint.init(bytes:))
  }

  package func save(_ name: String, meta: Database, in txn: inout WriteTransaction) throws {
    try txn.put(bytes, forKey: Self.key(name), in: meta)
  }
}
