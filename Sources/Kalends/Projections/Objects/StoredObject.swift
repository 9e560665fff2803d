internal import LMDB

/// One object of the ``ObjectProjection``: its version, whether it is live, its calendar and its
/// state.
///
/// Its `objects` entry is `version (8) ‖ modified timestamp (8) ‖ live (1) ‖ calendar id (16)`,
/// then its ``Trailer``: for a live event or reminder with an external identifier, that
/// identifier's ``ObjectProjection/externalDigest(_:)`` (16), followed for one with a resource name
/// by that name's (16); for an event or reminder removed by a
/// removal of its own, the position of its last save (8). The state itself is not copied: it is field 5 of
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
  /// The digest of its resource name (``Event/resourceName``) when it is a live item with one: the
  /// projection removes its entry under that name with it.
  let nameDigest: ExternalDigest?
  /// For an event or reminder removed by a removal of its own (not with its calendar): its last
  /// save, whose state names what it was (a sync names the removed `UID` from it).
  let lastSave: LogPosition?
  /// Its state: field 5 of the record at ``version`` once ``ObjectProjection`` has read it from the
  /// log; empty for a removed object, and in an entry as decoded.
  var state: PayloadReader

  /// The first 16 bytes of SHA-256 of an external identifier, as two big-endian numbers.
  typealias ExternalDigest = (UInt64, UInt64)

  /// What follows the header of an entry.
  enum Trailer {
    case none
    /// A live item's external identifier's digest.
    case external(ExternalDigest)
    /// A live item's external identifier's digest, then its resource name's.
    case named(ExternalDigest, name: ExternalDigest)
    /// A removed item's last save.
    case lastSave(UInt64)

    /// Its length in bytes.
    var length: Int {
      switch self {
      case .none: 0
      case .external: 16
      case .named: 32
      case .lastSave: 8
      }
    }

    /// The digest, when it is one.
    var external: ExternalDigest? {
      switch self {
      case .external(let digest), .named(let digest, _): digest
      default: nil
      }
    }

    /// The trailer of a live item with these digests.
    static func live(_ external: ExternalDigest?, name: ExternalDigest?) -> Trailer {
      guard let external else { return .none }
      return name.map { .named(external, name: $0) } ?? .external(external)
    }
  }

  /// The bytes before the optional trailer: version (8) ‖ modified (8) ‖ live (1) ‖ calendar (16).
  static let headerLength = 33

  /// The length of the entry of an object with `trailer`.
  static func length(_ trailer: Trailer) -> Int { headerLength + trailer.length }

  /// The entry of an object changed by the record at `position` and `timestamp`.
  static func encode(
    position: LogPosition, timestamp: Timestamp, live: Bool, calendar: ObjectID, trailer: Trailer
  ) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: length(trailer)) { buffer, count in
      write(
        position: position.rawValue, timestamp: timestamp.rawValue, live: live, calendar: calendar,
        trailer: trailer, to: UnsafeMutableRawBufferPointer(buffer))
      count = buffer.count
    }
  }

  /// Writes the entry at the start of `bytes`, which holds ``length(_:)`` bytes (a bulk load
  /// writes it in place, in the page LMDB reserves for it).
  static func write(
    position: UInt64, timestamp: Int64, live: Bool, calendar: ObjectID, trailer: Trailer,
    to bytes: UnsafeMutableRawBufferPointer
  ) {
    bytes.storeBytes(of: position.bigEndian, toByteOffset: 0, as: UInt64.self)
    bytes.storeBytes(of: UInt64(bitPattern: timestamp).bigEndian, toByteOffset: 8, as: UInt64.self)
    bytes[16] = live ? 1 : 0
    calendar.store(in: bytes, at: 17)
    switch trailer {
    case .none: break
    case .external(let external):
      bytes.storeBytes(of: external.0.bigEndian, toByteOffset: 33, as: UInt64.self)
      bytes.storeBytes(of: external.1.bigEndian, toByteOffset: 41, as: UInt64.self)
    case .named(let external, let name):
      bytes.storeBytes(of: external.0.bigEndian, toByteOffset: 33, as: UInt64.self)
      bytes.storeBytes(of: external.1.bigEndian, toByteOffset: 41, as: UInt64.self)
      bytes.storeBytes(of: name.0.bigEndian, toByteOffset: 49, as: UInt64.self)
      bytes.storeBytes(of: name.1.bigEndian, toByteOffset: 57, as: UInt64.self)
    case .lastSave(let position):
      bytes.storeBytes(of: position.bigEndian, toByteOffset: 33, as: UInt64.self)
    }
  }

  /// Decodes an entry; its ``state`` is empty until the projection reads it from the log.
  init(entry bytes: RawSpan) throws(StoreError) {
    guard
      [Self.headerLength, Self.headerLength + 8, Self.headerLength + 16, Self.headerLength + 32].contains(
        bytes.byteCount)
    else {
      throw .malformedPayload("a stored object is \(bytes.byteCount) bytes, not 33, 41, 49 or 65")
    }
    func number(_ offset: Int) -> UInt64 {
      UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    version = LogPosition(number(0))
    modified = Timestamp(rawValue: Int64(bitPattern: number(8)))
    isLive = bytes.unsafeLoad(fromByteOffset: 16, as: UInt8.self) == 1
    calendarID = ObjectID(bytes, at: 17)
    externalDigest = bytes.byteCount >= Self.headerLength + 16 ? (number(33), number(41)) : nil
    nameDigest = bytes.byteCount == Self.headerLength + 32 ? (number(49), number(57)) : nil
    lastSave = bytes.byteCount == Self.headerLength + 8 ? LogPosition(number(33)) : nil
    state = try PayloadReader(Payload())
  }
}
