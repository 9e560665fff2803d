internal import LMDB

/// The bulk loader of a projection without one of its own: it notes the positions of the records
/// of the projection's kinds during the load's scan (8 bytes each) and, in the load's write
/// transactions, reads them back from the log a chunk at a time and applies them one by one with
/// ``Projection/apply(_:payload:in:)``. The projection is then rebuilt beside the other loaders,
/// without a scan of its own, and in memory that does not grow with its records' payloads.
struct ReplayLoader: ProjectionBulkLoader {
  let projection: any Projection
  /// The log the records are read back from.
  let log: Database

  private var positions: [UInt64] = []
  /// How many records are applied.
  private var applied = 0

  /// The environment the log is in when it is not the one written to (a verification's scratch
  /// rebuild); `nil`: the records are read in the write transaction itself.
  let source: Environment?

  init(_ projection: any Projection, log: Database, source: Environment? = nil) {
    (self.projection, self.log, self.source) = (projection, log, source)
  }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    positions.append(header.position.rawValue)
  }

  mutating func prepare() throws {}

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let wanted = positions[applied..<min(positions.count, applied + limit)]
    // Read the chunk first: a cursor on the log is closed before the projection writes.
    let (headers, payloads, ends) =
      try source.map { source in try source.read { try read(wanted, in: $0) } }
      ?? txn.reading { try read(wanted, in: $0) }
    // The scan found these records in the same log, which nothing writes during a load.
    guard headers.count == wanted.count else {
      let position = LogPosition(wanted[wanted.startIndex + headers.count])
      throw StoreError.integrity(
        IntegrityProblem(position: position, kind: .missingRecord, detail: "a record read by the rebuild is gone"))
    }
    for (index, header) in headers.enumerated() {
      let start = index == 0 ? 0 : ends[index - 1]
      try projection.replay(header, payload: payloads.span.bytes.extracting(start..<ends[index]), in: &txn)
    }
    applied += wanted.count
    return applied == positions.count
  }

  /// The records at `wanted` in the snapshot `txn`: their headers, and their payloads end to end
  /// with where each ends.
  private func read(
    _ wanted: ArraySlice<UInt64>, in txn: borrowing ReadTransaction
  ) throws -> ([LogRecordHeader], [UInt8], [Int]) {
    var headers: [LogRecordHeader] = []
    var payloads: [UInt8] = []
    var ends: [Int] = []
    try txn.withCursor(on: log) { cursor in
      var principals = PrincipalCache()
      var next = wanted.startIndex
      while next < wanted.endIndex {
        let first = next
        guard try cursor.seek(atLeast: BigEndianKey(wanted[next])) else { break }
        // Consecutive positions are read in one pass forward.
        try cursor.scanForward { _, value in
          let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
          guard decoded.header.position.rawValue == wanted[next] else { return .stop }
          headers.append(decoded.header)
          value.extracting(decoded.payload).withUnsafeBytes { payloads.append(contentsOf: $0) }
          ends.append(payloads.count)
          next += 1
          return next < wanted.endIndex ? .continue : .stop
        }
        if next == first { break }
      }
    }
    return (headers, payloads, ends)
  }
}
