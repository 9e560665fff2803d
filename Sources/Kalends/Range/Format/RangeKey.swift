/// The keys of the date-range index (docs/projections.md): sortable encodings of calendars, time
/// domains, duration classes and times.
enum RangeKey {
  /// Which clock an instance's times are on.
  enum Domain: UInt8, Sendable {
    /// UTC seconds: events with a time zone.
    case absolute = 0
    /// Wall-clock seconds, placed in the viewer's zone at query time: floating and all-day events.
    case wallClock = 1
  }

  /// Instances are kept in four duration classes: up to 2 hours, up to a day, up to 7 days, longer.
  /// Each class keeps its own longest duration per calendar and clock, so a query seeks back
  /// only by what its class needs: one three-day event does not make every query rescan three days
  /// of meetings, and one six-week event does not make it rescan six weeks.
  static let classCount: UInt8 = 4

  /// The duration class of an instance of `duration` seconds.
  static func durationClass(_ duration: Int64) -> UInt8 {
    duration <= 2 * 3_600 ? 0 : duration <= 86_400 ? 1 : duration <= 7 * 86_400 ? 2 : 3
  }

  /// The longest duration an instance of class `durationClass` has; `nil` for the last, unbounded
  /// class.
  static func longestDuration(ofClass durationClass: UInt8) -> Int64? {
    switch durationClass {
    case 0: 2 * 3_600
    case 1: 86_400
    case 2: 7 * 86_400
    default: nil
    }
  }

  /// A signed time as 8 bytes that sort like the number (big-endian, sign bit flipped).
  static func append(_ time: Int64, to key: inout [UInt8]) {
    let flipped = UInt64(bitPattern: time) ^ (1 << 63)
    withUnsafeBytes(of: flipped.bigEndian) { key.append(contentsOf: $0) }
  }

  /// The 8 bytes ``append(_:to:)`` writes for `time`, as a value to store in place.
  static func sortable(_ time: Int64) -> UInt64 { (UInt64(bitPattern: time) ^ (1 << 63)).bigEndian }

  /// The time at `offset` of `bytes`, encoded by ``append(_:to:)``.
  static func time(in bytes: RawSpan, at offset: Int) -> Int64 {
    Int64(bitPattern: UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ (1 << 63))
  }

  /// The time at `offset` of `bytes`, encoded by ``append(_:to:)``.
  @inline(__always)
  static func time(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
    Int64(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ (1 << 63))
  }

  /// The time at `offset` of `bytes`, encoded by ``append(_:to:)``.
  static func time(in bytes: [UInt8], at offset: Int) -> Int64 {
    Int64(bitPattern: RecordCodec.readBigEndian(bytes[offset..<offset + 8]) ^ (1 << 63))
  }

  /// `calendar ‖ domain ‖ class`: the prefix of one run of instances sorted by start.
  static func run(_ calendar: ObjectID, _ domain: Domain, _ durationClass: UInt8) -> [UInt8] {
    var key = calendar.bytes
    key.append(domain.rawValue)
    key.append(durationClass)
    return key
  }

  /// Where the start is in a key of a run's instances (``run(_:_:_:)`` ‖ start ‖ …).
  static let startOffset = 18
}
