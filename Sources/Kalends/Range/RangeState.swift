/// The part of an event's state the date-range index keeps (in `range.open` and `range.items`):
/// what places its instances — start, end, all-day, zone, rules, exception and extra dates, and
/// each detached occurrence's original start and times — and not its title, notes, location or
/// other text, which the object projection already holds. A description of a few kilobytes per
/// event would otherwise be stored twice more. The external identifier is kept empty: an event
/// state must have one, and the index never reads it (a UUID is 36 bytes a state).
enum RangeState {
  /// Top-level fields of the event state kept (docs/log-format.md); the external identifier's
  /// (``externalIDTag``) empty.
  static let eventTags: Set<UInt8> = [1, 3, 4, 5, 6, 13, 14, 15, 16]
  static let externalIDTag: UInt8 = 1
  /// Fields of a detached occurrence kept.
  static let occurrenceTags: Set<UInt8> = [17, 3, 4, 5, 6]
  /// ``eventTags`` and ``occurrenceTags`` as bit masks (every tag is below 32).
  private static let eventMask: UInt32 = eventTags.reduce(0) { $0 | 1 << UInt32($1) }
  private static let occurrenceMask: UInt32 = occurrenceTags.reduce(0) { $0 | 1 << UInt32($1) }

  private static func keeps(_ tag: UInt8, _ mask: UInt32) -> Bool { tag < 32 && mask & (1 << UInt32(tag)) != 0 }

  /// Appends to `out` the timing state of the event state in `range` of `bytes`: only the fields
  /// that place instances, in their order, each encoded as ``Payload`` encodes it, without decoding
  /// the fields into copies.
  private static func appendTiming(
    of bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to out: inout [UInt8]
  ) throws(StoreError) {
    try PayloadSpan.scan(bytes, range) { field throws(StoreError) in
      guard keeps(field.tag, eventMask) else { return }
      if field.tag == externalIDTag {
        Payload.appendHeader(tag: field.tag, length: 0, to: &out)
        return
      }
      guard field.tag == 16 else {
        appendField(field.tag, bytes, field.range, to: &out)
        return
      }
      var occurrence: [UInt8] = []
      try PayloadSpan.scan(bytes, field.range) { inner in
        if keeps(inner.tag, occurrenceMask) { appendField(inner.tag, bytes, inner.range, to: &occurrence) }
      }
      occurrence.withUnsafeBytes { appendField(16, $0, 0..<$0.count, to: &out) }
    }
  }

  /// Appends one field as ``Payload/append(tag:bytes:)`` encodes it.
  private static func appendField(
    _ tag: UInt8, _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to out: inout [UInt8]
  ) {
    Payload.appendHeader(tag: tag, length: range.count, to: &out)
    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
  }

  /// The item and its calendar, from an `eventSaved` record's payload, appending its timing state
  /// to `out` (the inline projection passes an empty array, the bulk loader its arena).
  static func saved(_ payload: RawSpan, appendingTimingTo out: inout [UInt8]) throws(StoreError) -> (
    id: ObjectID, calendar: ObjectID
  ) {
    let fields = try PayloadFieldIndex(payload)
    let saved = (try fields.requiredObjectID(1, in: payload), try fields.requiredObjectID(2, in: payload))
    guard let state = fields[5] else { return saved }
    let failure: StoreError? = payload.withUnsafeBytes { bytes in
      do throws(StoreError) {
        try appendTiming(of: bytes, state, to: &out)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    return saved
  }
}
