/// A record payload: a sequence of tagged, length-prefixed fields.
///
/// Each field is its tag (1 byte, 1–255), its length (unsigned LEB128) and its value bytes. Tags may
/// repeat (a list). The encoding of each value is fixed by the kind's schema (docs/log-format.md).
package struct Payload: Hashable, Sendable {
  /// The encoded bytes.
  package private(set) var bytes: [UInt8]

  /// An empty payload.
  package init() { bytes = [] }

  /// Wraps already-encoded bytes (validated when read).
  package init(bytes: [UInt8]) { self.bytes = bytes }

  /// Appends a field with raw value bytes.
  package mutating func append(tag: UInt8, bytes value: some Collection<UInt8>) {
    precondition(tag != 0, "payload tag 0 is reserved")
    Self.appendHeader(tag: tag, length: value.count, to: &bytes)
    bytes.append(contentsOf: value)
  }

  /// Appends a field's tag and its length (unsigned LEB128) to `bytes`.
  static func appendHeader(tag: UInt8, length count: Int, to bytes: inout [UInt8]) {
    bytes.append(tag)
    var length = UInt64(count)
    repeat {
      let low = UInt8(length & 0x7f)
      length >>= 7
      bytes.append(length == 0 ? low : low | 0x80)
    } while length != 0
  }

  /// Appends a UTF-8 string field.
  package mutating func append(tag: UInt8, string: String) {
    append(tag: tag, bytes: Array(string.utf8))
  }

  /// Appends an unsigned field (8 bytes big-endian).
  package mutating func append(tag: UInt8, unsigned value: UInt64) {
    append(tag: tag, bytes: Self.bigEndianBytes(value))
  }

  /// Appends a signed field (8 bytes big-endian two's complement).
  package mutating func append(tag: UInt8, signed value: Int64) {
    append(tag: tag, bytes: Self.bigEndianBytes(UInt64(bitPattern: value)))
  }

  /// Appends a boolean field (1 byte).
  package mutating func append(tag: UInt8, bool value: Bool) {
    append(tag: tag, bytes: [value ? 1 : 0])
  }

  static func bigEndianBytes(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
  }

  /// The fields in order. Throws when the bytes are not a well-formed field sequence.
  package func fields() throws(StoreError) -> [PayloadField] {
    try PayloadSpan.scan(bytes, 0..<bytes.count).map { PayloadField(tag: $0.tag, value: Array(bytes[$0.range])) }
  }

  /// The first value of `tag`, or `nil`.
  package func first(tag: UInt8) throws(StoreError) -> PayloadField? {
    try fields().first { $0.tag == tag }
  }
}

/// One field of a ``Payload``.
package struct PayloadField: Hashable, Sendable {
  /// Its tag.
  package let tag: UInt8
  /// Its value bytes.
  package let value: [UInt8]

  /// The value as UTF-8 text, or `nil` when it is not valid UTF-8.
  package var string: String? { String(validating: value, as: UTF8.self) }

  /// The value as an 8-byte big-endian unsigned number, or `nil` for another length.
  package var unsigned: UInt64? {
    guard value.count == 8 else { return nil }
    return value.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The value as an 8-byte big-endian signed number, or `nil` for another length.
  package var signed: Int64? { unsigned.map { Int64(bitPattern: $0) } }

  /// The value as a boolean, or `nil` unless it is one byte 0 or 1.
  package var bool: Bool? {
    guard value.count == 1, value[0] <= 1 else { return nil }
    return value[0] == 1
  }
}
