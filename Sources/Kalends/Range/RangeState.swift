/// The part of an event's state the date-range index keeps (in `range.open` and `range.items`):
/// what places its instances — the external identifier, start, end, all-day, zone, rules,
/// exception and extra dates, and each detached occurrence's original start and times — and not
/// its title, notes, location or other text, which the object projection already holds. A
/// description of a few kilobytes per event would otherwise be stored twice more.
enum RangeState {
  /// Top-level fields of the event state kept (docs/log-format.md).
  static let eventTags: Set<UInt8> = [1, 3, 4, 5, 6, 13, 14, 15, 16]
  /// Fields of a detached occurrence kept.
  static let occurrenceTags: Set<UInt8> = [17, 3, 4, 5, 6]

  /// `state` with only the fields that place instances, in their order.
  static func timing(_ state: [UInt8]) throws(StoreError) -> [UInt8] {
    var kept = Payload()
    for field in try Payload(bytes: state).fields() where eventTags.contains(field.tag) {
      if field.tag == 16 {
        var occurrence = Payload()
        for inner in try Payload(bytes: field.value).fields() where occurrenceTags.contains(inner.tag) {
          occurrence.append(tag: inner.tag, bytes: inner.value)
        }
        kept.append(tag: 16, message: occurrence)
      } else {
        kept.append(tag: field.tag, bytes: field.value)
      }
    }
    return kept.bytes
  }

  /// The item, its calendar and its timing state, from an `eventSaved` record's payload.
  static func saved(_ payload: RawSpan) throws(StoreError) -> (id: ObjectID, calendar: ObjectID, state: [UInt8]) {
    let fields = try PayloadReader(bytes: payload)
    return (try fields.requiredObjectID(1), try fields.requiredObjectID(2), try timing(fields.bytes(5) ?? []))
  }
}
