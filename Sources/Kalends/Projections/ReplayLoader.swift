internal import LMDB

/// The bulk loader of a projection without one of its own: it keeps the records of the
/// projection's kinds read by the load's scan (their payloads in one arena) and applies them one by
/// one with ``Projection/apply(_:payload:in:)`` in the load's write transactions. The projection
/// is then rebuilt during the scan the other loaders make, instead of in a scan of its own after
/// them.
struct ReplayLoader: ProjectionBulkLoader {
  let projection: any Projection

  private var headers: [LogRecordHeader] = []
  /// Where each record's payload ends in ``payloads``.
  private var ends: [Int] = []
  private var payloads: [UInt8] = []
  /// How many records are applied.
  private var applied = 0

  init(_ projection: any Projection) { self.projection = projection }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    headers.append(header)
    payload.withUnsafeBytes { payloads.append(contentsOf: $0) }
    ends.append(payloads.count)
  }

  mutating func prepare() throws {}

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let end = min(headers.count, applied + limit)
    for index in applied..<end {
      let start = index == 0 ? 0 : ends[index - 1]
      try projection.apply(headers[index], payload: payloads.span.bytes.extracting(start..<ends[index]), in: &txn)
    }
    applied = end
    return applied == headers.count
  }
}
