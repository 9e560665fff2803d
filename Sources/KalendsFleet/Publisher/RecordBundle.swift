package import Kalends

/// Records of one store as one message of the fleet's stream: consecutive positions, byte for byte
/// as the store holds them, so that a bundle published again after a crash is the same bytes.
///
/// Layout: `KALB` ‖ format (1 byte, 1) ‖ store id (16) ‖ first position (8, big-endian) ‖ count (4,
/// big-endian) ‖ for each record: length (4, big-endian) ‖ the record.
package struct RecordBundle: Hashable, Sendable {
  /// Bundles end at multiples of this many positions (or at the head): a bundle of the same
  /// positions is the same bundle whoever sends it, whenever.
  package static let alignment: UInt64 = 256

  package let store: StoreID
  package let first: LogPosition
  package let records: [[UInt8]]

  package init(store: StoreID, first: LogPosition, records: [[UInt8]]) {
    self.store = store
    self.first = first
    self.records = records
  }

  /// The last position it holds.
  package var last: LogPosition { LogPosition(first.rawValue + UInt64(records.count) - 1) }

  /// Its message id in the stream: `STORE:FIRST-LAST`, which JetStream keeps once.
  package var messageID: String { "\(store):\(first.rawValue)-\(last.rawValue)" }

  /// The last position of the bundle that starts at `first` when the log's head is `head`: the next
  /// multiple of `alignment`, or the head before it.
  package static func end(from first: LogPosition, head: LogPosition) -> LogPosition {
    LogPosition(min(head.rawValue, ((first.rawValue - 1) / alignment + 1) * alignment))
  }

  private static let magic: [UInt8] = Array("KALB".utf8)

  /// The bundle's bytes.
  package var bytes: [UInt8] {
    var out = Self.magic + [1] + store.bytes
    func append(_ value: UInt64, _ width: Int) {
      for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: value >> shift))
      }
    }
    append(first.rawValue, 8)
    append(UInt64(records.count), 4)
    for record in records {
      append(UInt64(record.count), 4)
      out += record
    }
    return out
  }

  /// Why bytes are no bundle.
  package struct Malformed: Error, Sendable, CustomStringConvertible {
    package let description: String
  }

  /// The bundle of `bytes`.
  package init(bytes: [UInt8]) throws(Malformed) {
    var offset = 0
    func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
      guard count >= 0, offset + count <= bytes.count else { throw Malformed(description: "the bundle is cut short") }
      defer { offset += count }
      return bytes[offset..<(offset + count)]
    }
    func number(_ width: Int) throws(Malformed) -> UInt64 {
      try take(width).reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard Array(try take(4)) == Self.magic else { throw Malformed(description: "not a bundle of records") }
    guard try take(1).first == 1 else { throw Malformed(description: "a bundle format this version does not read") }
    guard let store = StoreID(bytes: Array(try take(16))) else { throw Malformed(description: "no store id") }
    let first = try number(8)
    let count = try number(4)
    guard first >= 1, count >= 1 else { throw Malformed(description: "a bundle of no records") }
    var records: [[UInt8]] = []
    for _ in 0..<count { records.append(Array(try take(Int(try number(4))))) }
    guard offset == bytes.count else { throw Malformed(description: "bytes after the last record") }
    self.init(store: store, first: LogPosition(first), records: records)
  }
}
