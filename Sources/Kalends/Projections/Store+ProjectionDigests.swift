internal import LMDB

extension Store {
  /// A SHA-256 digest of each projection database's contents (every key and value, in key order,
  /// each prefixed by its length), by database name, with the entry count. Two stores whose
  /// projections hold the same bytes have the same digests; `verify` compares the live ones with a
  /// rebuild's.
  public func projectionDigests() throws(StoreError) -> [String: ProjectionDigest] {
    let projections = try projections
    return try StoreError.wrapping {
      try environment.read { txn in try Self.digests(of: projections.databases, in: txn) }
    }
  }

  /// The digest of each of `databases` in the snapshot `txn`.
  static func digests(
    of databases: [String: Database], in txn: borrowing ReadTransaction
  ) throws -> [String: ProjectionDigest] {
    var digests: [String: ProjectionDigest] = [:]
    for (name, database) in databases {
      var hasher = SHA256()
      var entries = 0
      try txn.withCursor(on: database) { cursor in
        guard try cursor.first() else { return }
        _ = try cursor.scanForward { key, value in
          Self.feed(key, into: &hasher)
          Self.feed(value, into: &hasher)
          entries += 1
          return .continue
        }
      }
      digests[name] = ProjectionDigest(entries: entries, sha256: Hex.encode(Array(hasher.finalize())))
    }
    return digests
  }

  private static func feed(_ part: RawSpan, into hasher: inout SHA256) {
    withUnsafeBytes(of: UInt64(part.byteCount).bigEndian) { hasher.update(bufferPointer: $0) }
    part.withUnsafeBytes { hasher.update(bufferPointer: $0) }
  }
}

/// The digest of one projection database.
public struct ProjectionDigest: Hashable, Sendable, CustomStringConvertible {
  /// How many entries it holds.
  public let entries: Int
  /// SHA-256 over its entries, lowercase hex.
  public let sha256: String

  public var description: String { "\(entries) entries, sha256 \(sha256.prefix(16))…" }
}
