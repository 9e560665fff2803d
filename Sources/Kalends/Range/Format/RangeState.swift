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
  /// The start's field (wall-clock seconds, 8 bytes).
  static let startTag: UInt8 = 3
  /// The end's field.
  static let endTag: UInt8 = 4
  /// The exception dates' field (`EXDATE`, repeated).
  static let exceptionDateTag: UInt8 = 14
  /// The detached occurrences' field (a message each, repeated).
  static let detachedOccurrenceTag: UInt8 = 16
  /// Fields of a detached occurrence kept.
  static let occurrenceTags: Set<UInt8> = [17, 3, 4, 5, 6]
  /// ``eventTags`` and ``occurrenceTags`` as bit masks (every tag is below 32).
  private static let eventMask: UInt32 = eventTags.reduce(0) { $0 | 1 << UInt32($1) }
  private static let occurrenceMask: UInt32 = occurrenceTags.reduce(0) { $0 | 1 << UInt32($1) }

  private static func keeps(_ tag: UInt8, _ mask: UInt32) -> Bool { tag < 32 && mask & (1 << UInt32(tag)) != 0 }

  /// Appends to `out` the timing state of the event state in `range` of `bytes`: only the fields
  /// that place instances, in their order, each encoded as ``Payload`` encodes it, without decoding
  /// the fields into copies. Returns the start's field as it is stored (wall-clock seconds), if any,
  /// and the tags of the fields kept (bit `tag` set).
  private static func appendTiming(
    of bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to out: inout [UInt8]
  ) throws(StoreError) -> (start: Int64?, tags: UInt32) {
    var start: Int64?
    var tags: UInt32 = 0
    try PayloadSpan.scan(bytes, range) { field throws(StoreError) in
      guard keeps(field.tag, eventMask) else { return }
      tags |= 1 << UInt32(field.tag)
      if field.tag == startTag {
        guard field.range.count == 8 else {
          throw .malformedPayload("field \(startTag) is \(field.range.count) bytes, not 8")
        }
        start = Int64(
          bitPattern: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: field.range.lowerBound, as: UInt64.self)))
      }
      if field.tag == externalIDTag {
        Payload.appendHeader(tag: field.tag, length: 0, to: &out)
        return
      }
      guard field.tag == detachedOccurrenceTag else {
        appendField(field.tag, bytes, field.range, to: &out)
        return
      }
      var occurrence: [UInt8] = []
      try PayloadSpan.scan(bytes, field.range) { inner in
        if keeps(inner.tag, occurrenceMask) { appendField(inner.tag, bytes, inner.range, to: &occurrence) }
      }
      occurrence.withUnsafeBytes { appendField(detachedOccurrenceTag, $0, 0..<$0.count, to: &out) }
    }
    return (start, tags)
  }

  /// Appends one field as ``Payload/append(tag:bytes:)`` encodes it.
  private static func appendField(
    _ tag: UInt8, _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to out: inout [UInt8]
  ) {
    Payload.appendHeader(tag: tag, length: range.count, to: &out)
    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
  }

  /// The item, its calendar, its start as stored (wall-clock seconds, not checked) and the tags of
  /// its timing state's fields (bit `tag` set), from an `eventSaved` record's payload, appending its
  /// timing state to `out` (the inline projection passes an empty array, the bulk loader its arena).
  static func saved(_ payload: RawSpan, appendingTimingTo out: inout [UInt8]) throws(StoreError) -> (
    id: ObjectID, calendar: ObjectID, start: Int64?, tags: UInt32
  ) {
    let fields = try PayloadFieldIndex(payload)
    let (id, calendar) = (try fields.requiredObjectID(1, in: payload), try fields.requiredObjectID(2, in: payload))
    guard let state = fields[5] else { return (id, calendar, nil, 0) }
    let read: Result<(start: Int64?, tags: UInt32), StoreError> = payload.withUnsafeBytes { bytes in
      Result { () throws(StoreError) in try appendTiming(of: bytes, state, to: &out) }
    }
    let (start, tags) = try read.get()
    return (id, calendar, start, tags)
  }

  /// Whether an event whose timing state has the fields `tags` (as ``saved(_:appendingTimingTo:)``
  /// returns them) is certainly indexed, as far as its fields tell: it has a start and an end, and
  /// no exception date or detached occurrence that could take away its first occurrence (the start
  /// of a series is always one of its occurrences). An event for which this is false may be indexed
  /// too; only expanding it tells.
  static func isSurelyIndexed(tags: UInt32) -> Bool {
    let required: UInt32 = 1 << UInt32(startTag) | 1 << UInt32(endTag)
    let removing: UInt32 = 1 << UInt32(exceptionDateTag) | 1 << UInt32(detachedOccurrenceTag)
    return tags & required == required && tags & removing == 0
  }
}
