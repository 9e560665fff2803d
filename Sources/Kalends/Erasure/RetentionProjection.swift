internal import LMDB

/// The retention policy in force: the last `retentionSet` record's.
///
/// Database `retention`: key `policy` → the seconds after which removed items are erased (8,
/// big-endian; `0`: no automatic erasure) ‖ the position of the record that set it (8).
struct RetentionProjection: Projection {
  static let name = "retention"
  static let version: UInt32 = 1
  static let databaseNames = ["retention"]
  static let kinds: Set<RecordKind> = [.retentionSet]
  static let policyKey = Array("policy".utf8)

  let retention: Database

  init(databases: [String: Database], log: Database) {
    retention = databases["retention"]!
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    guard header.kind == .retentionSet else { return }
    guard let seconds = try PayloadReader(bytes: payload).unsigned(1), seconds <= RetentionPolicy.longest else {
      throw StoreError.malformedPayload("a retention policy without a valid removedAfter")
    }
    try txn.put(
      Payload.bigEndianBytes(seconds) + Payload.bigEndianBytes(header.position.rawValue), forKey: Self.policyKey,
      in: retention)
  }

  /// The policy in force; `nil` when none was ever set or the last one turned it off.
  func policy(in txn: borrowing ReadTransaction) throws -> RetentionPolicy? {
    try txn.withValue(forKey: Self.policyKey, in: retention) { value -> RetentionPolicy? in
      let bytes = Array(copying: value)
      guard bytes.count == 16 else {
        throw StoreError.malformedPayload("a stored retention policy of \(bytes.count) bytes")
      }
      let seconds = RecordCodec.readBigEndian(bytes[0..<8])
      guard seconds > 0 else { return nil }
      return RetentionPolicy(
        removedAfterSeconds: Int64(seconds), setAt: LogPosition(RecordCodec.readBigEndian(bytes[8..<16])))
    } ?? nil
  }
}
