/// Where the first value of each tag below 32 is in an encoded payload, found in one pass without
/// copying: for loaders that read a few fields of a million records. Every field is still
/// validated (tags above 31 are checked and skipped).
struct PayloadFieldIndex {
  private var starts = InlineArray<32, Int32>(repeating: -1)
  private var ends = InlineArray<32, Int32>(repeating: -1)

  /// Indexes the payload `bytes`.
  init(_ bytes: RawSpan) throws(StoreError) {
    var found = InlineArray<32, Int32>(repeating: -1)
    var foundEnds = InlineArray<32, Int32>(repeating: -1)
    let failure: StoreError? = bytes.withUnsafeBytes { buffer in
      do throws(StoreError) {
        try PayloadSpan.scan(buffer, 0..<buffer.count) { span in
          let tag = Int(span.tag)
          guard tag < 32, found[tag] < 0 else { return }
          found[tag] = Int32(span.range.lowerBound)
          foundEnds[tag] = Int32(span.range.upperBound)
        }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    starts = found
    ends = foundEnds
  }

  /// The byte range of the first value of `tag`, or `nil` when it is absent.
  subscript(_ tag: UInt8) -> Range<Int>? {
    let start = starts[Int(tag)]
    return start < 0 ? nil : Int(start)..<Int(ends[Int(tag)])
  }

  /// The identifier in field `tag` of `bytes` (the payload this index was built from).
  func requiredObjectID(_ tag: UInt8, in bytes: RawSpan) throws(StoreError) -> ObjectID {
    guard let range = self[tag] else { throw .malformedPayload("required identifier field \(tag) is missing") }
    guard range.count == 16 else { throw .malformedPayload("field \(tag) is not a 16-byte identifier") }
    return ObjectID(bytes, at: range.lowerBound)
  }

  /// The 8-byte signed number in field `tag` of `bytes`, or `nil` when it is absent.
  func signed(_ tag: UInt8, in bytes: RawSpan) throws(StoreError) -> Int64? {
    guard let range = self[tag] else { return nil }
    guard range.count == 8 else { throw .malformedPayload("field \(tag) is \(range.count) bytes, not 8") }
    return Int64(
      bitPattern: UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)))
  }
}
