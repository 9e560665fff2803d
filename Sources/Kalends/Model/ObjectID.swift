/// The stable identifier of a calendar, event or reminder: a random UUID that never changes, not
/// even when an event moves to another calendar (EventKit's `calendarItemIdentifier`, made stable).
///
/// Held inline as two big-endian halves, so identifiers cost no allocation and compare like their
/// bytes.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The first and last 8 bytes, big-endian.
  let high: UInt64
  let low: UInt64

  /// The 16 bytes as two big-endian halves, for encoders that write them without allocating.
  package var halves: (high: UInt64, low: UInt64) { (high, low) }

  /// The 16 bytes.
  public var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(16)
    withUnsafeBytes(of: high.bigEndian) { out.append(contentsOf: $0) }
    withUnsafeBytes(of: low.bigEndian) { out.append(contentsOf: $0) }
    return out
  }

  /// Appends the 16 bytes to `bytes` (no array of their own).
  func append(to bytes: inout [UInt8]) {
    withUnsafeBytes(of: high.bigEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: low.bigEndian) { bytes.append(contentsOf: $0) }
  }

  /// Writes the 16 bytes at `offset` of `buffer` (no array of their own).
  func store(in buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
    buffer.storeBytes(of: high.bigEndian, toByteOffset: offset, as: UInt64.self)
    buffer.storeBytes(of: low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
  }

  /// Wraps 16 bytes; `nil` for any other count.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 16 else { return nil }
    var high: UInt64 = 0
    var low: UInt64 = 0
    for (index, byte) in bytes.enumerated() {
      if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
    }
    self.high = high
    self.low = low
  }

  /// The 16 bytes at `offset` of `bytes`.
  init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
    high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
  }

  /// The 16 bytes at `offset` of `span`.
  init(_ span: RawSpan, at offset: Int) {
    high = UInt64(bigEndian: span.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
    low = UInt64(bigEndian: span.unsafeLoadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
  }

  /// Parses the UUID text form (`1B4E28BA-2FA1-41D2-883F-0016D3CCA427`, any case, dashes optional).
  public init?(_ text: String) {
    let digits = text.filter { $0 != "-" }
    guard digits.utf8.count == 32, let bytes = Hex.decode(digits) else { return nil }
    self.init(bytes: bytes)
  }

  /// A new random identifier (a version 4 UUID).
  public static func random() -> ObjectID {
    ObjectID(bytes: StoreID.random().bytes)!
  }

  /// The canonical text: an uppercase UUID, as EventKit prints identifiers.
  public var description: String {
    let hex = Array("0123456789ABCDEF".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append(0x2D) }
      text += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }
    return String(decoding: text, as: UTF8.self)
  }

  public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
