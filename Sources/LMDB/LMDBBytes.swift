/// A value that can lend its bytes to LMDB as a key or a value without being copied.
package protocol LMDBBytes {
  /// Calls `body` with a view of the bytes that is valid only during the call.
  func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R
}

extension Array: LMDBBytes where Element == UInt8 {
  package func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R {
    try body(span.bytes)
  }
}

extension ArraySlice: LMDBBytes where Element == UInt8 {
  package func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R {
    try body(span.bytes)
  }
}

extension String: LMDBBytes {
  /// The UTF-8 bytes, without a terminating NUL.
  package func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R {
    var copy = self
    return try copy.withUTF8 { buffer in
      try body(RawSpan(_unsafeBytes: UnsafeRawBufferPointer(buffer)))
    }
  }
}

/// An unsigned integer key stored big-endian, so that LMDB's byte order is numeric order.
package struct BigEndianKey<Value: FixedWidthInteger & UnsignedInteger & Sendable & BitwiseCopyable>: LMDBBytes,
  Sendable, Hashable
{
  /// The number.
  package var value: Value

  /// Wraps `value`.
  package init(_ value: Value) { self.value = value }

  /// Decodes a key of exactly `MemoryLayout<Value>.size` bytes; `nil` for any other length.
  package init?(_ bytes: RawSpan) {
    guard bytes.byteCount == MemoryLayout<Value>.size else { return nil }
    value = Value(bigEndian: bytes.unsafeLoadUnaligned(as: Value.self))
  }

  package func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R {
    try withUnsafeBytes(of: value.bigEndian) { buffer in
      try body(RawSpan(_unsafeBytes: buffer))
    }
  }
}

extension UnsafeRawBufferPointer: LMDBBytes {
  package func withLMDBBytes<R>(_ body: (RawSpan) throws -> R) rethrows -> R {
    try body(RawSpan(_unsafeBytes: self))
  }
}
