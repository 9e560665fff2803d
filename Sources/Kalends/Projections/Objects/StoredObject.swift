internal import LMDB

/// One object of the ``ObjectProjection``: its version, whether it is live, its calendar and its
/// state.
///
/// Its `objects` entry is `version (8) ‖ modified timestamp (8) ‖ live (1) ‖ calendar id (16)`,
/// then, for a live event or reminder with an external identifier, that identifier's
/// ``ObjectProjection/externalDigest(_:)`` (16). The state itself is not copied: it is field 5 of
/// the record at `version` (the save that made it what it is), which ``ObjectProjection`` reads
/// from the log.
struct StoredObject: Sendable {
  let version: LogPosition
  let modified: Timestamp
  let isLive: Bool
  let calendarID: ObjectID
  /// The digest of its external identifier (iCalendar's `UID`) when it is a live item with one: the
  /// projection removes its `objects.byExternalID` entry with it, without reading the log.
  let externalDigest: ExternalDigest?
  /// Its state: field 5 of the record at ``version`` once ``ObjectProjection`` has read it from the
  /// log; empty for a removed object, and in an entry as decoded.
  var state: PayloadReader

  /// The first 16 bytes of SHA-256 of an external identifier, as two big-endian numbers.
  typealias ExternalDigest = (UInt64, UInt64)

  /// The bytes before the optional digest: version (8) ‖ modified (8) ‖ live (1) ‖ calendar (16).
  static let headerLength = 33

  /// The length of the entry of an object with or without an external digest.
  static func length(external: ExternalDigest?) -> Int { headerLength + (external == nil ? 0 : 16) }

  /// The entry of an object changed by the record at `position` and `timestamp`.
  static func encode(
    position: LogPosition, timestamp: Timestamp, live: Bool, calendar: ObjectID, external: ExternalDigest?
  ) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: length(external: external)) { buffer, count in
      write(
        position: position.rawValue, timestamp: timestamp.rawValue, live: live, calendar: calendar,
        external: external, to: UnsafeMutableRawBufferPointer(buffer))
      count = buffer.count
    }
  }

  /// Writes the entry at the start of `bytes`, which holds ``length(external:)`` bytes (a bulk load
  /// writes it in place, in the page LMDB reserves for it).
  static func write(
    position: UInt64, timestamp: Int64, live: Bool, calendar: ObjectID, external: ExternalDigest?,
    to bytes: UnsafeMutableRawBufferPointer
  ) {
    bytes.storeBytes(of: position.bigEndian, toByteOffset: 0, as: UInt64.self)
    bytes.storeBytes(of: UInt64(bitPattern: timestamp).bigEndian, toByteOffset: 8, as: UInt64.self)
    bytes[16] = live ? 1 : 0
    calendar.store(in: bytes, at: 17)
    guard let external else { return }
    bytes.storeBytes(of: external.0.bigEndian, toByteOffset: 33, as: UInt64.self)
    bytes.storeBytes(of: external.1.bigEndian, toByteOffset: 41, as: UInt64.self)
  }

  /// Decodes an entry; its ``state`` is empty until the projection reads it from the log.
  init(entry bytes: RawSpan) throws(StoreError) {
    guard bytes.byteCount == Self.headerLength || bytes.byteCount == Self.headerLength + 16 else {
      throw .malformedPayload("a stored object is \(bytes.byteCount) bytes, not 33 or 49")
    }
    func number(_ offset: Int) -> UInt64 {
      UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    version = LogPosition(number(0))
    modified = Timestamp(rawValue: Int64(bitPattern: number(8)))
    isLive = bytes.unsafeLoad(fromByteOffset: 16, as: UInt8.self) == 1
    calendarID = ObjectID(bytes, at: 17)
    externalDigest = bytes.byteCount > Self.headerLength ? (number(33), number(41)) : nil
    state = try PayloadReader(Payload())
  }
}
