/// Where one field of an encoded payload is: its tag and the byte range of its value. The one
/// parser of the field encoding (``Payload``), shared by ``Payload/fields()`` and
/// ``PayloadReader``.
struct PayloadSpan {
  /// The field's tag.
  let tag: UInt8
  /// Its value's bytes within the scanned buffer.
  let range: Range<Int>
  /// Where the field (its tag) starts within the scanned buffer.
  var headerStart: Int = 0

  /// The fields of the payload in `range` of `bytes`, in order. Throws when the bytes are not a
  /// well-formed field sequence.
  static func scan(_ bytes: [UInt8], _ range: Range<Int>) throws(StoreError) -> [PayloadSpan] {
    var spans: [PayloadSpan] = []
    let failure: StoreError? = bytes.withUnsafeBytes { buffer in
      do throws(StoreError) {
        try scan(buffer, range) { spans.append($0) }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    return spans
  }

  /// Calls `body` with each field of the payload in `range` of `bytes`, in order, without copying
  /// anything. Throws when the bytes are not a well-formed field sequence.
  @inline(__always)
  static func scan(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ body: (PayloadSpan) throws(StoreError) -> Void
  ) throws(StoreError) {
    var offset = range.lowerBound
    let end = range.upperBound
    while offset < end {
      let start = offset
      let tag = bytes[offset]
      offset += 1
      guard tag != 0 else { throw .malformedPayload("field tag 0 at byte \(offset - 1 - range.lowerBound)") }
      var length: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard offset < end else { throw .malformedPayload("field \(tag) length runs past the end") }
        let byte = bytes[offset]
        offset += 1
        guard shift < 63 else { throw .malformedPayload("field \(tag) length is too long") }
        length |= UInt64(byte & 0x7f) << shift
        shift += 7
        if byte & 0x80 == 0 { break }
      }
      guard length <= UInt64(end - offset) else {
        throw .malformedPayload("field \(tag) claims \(length) bytes, \(end - offset) remain")
      }
      let valueEnd = offset + Int(length)
      try body(PayloadSpan(tag: tag, range: offset..<valueEnd, headerStart: start))
      offset = valueEnd
    }
  }
}
