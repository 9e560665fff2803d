/// The instance of a single (not recurring) event, read straight from its timing state
/// (``RangeState``) without decoding an ``Event``: what ``RangeItemEntries`` computes for it, for
/// the bulk loader of rebuilds, where nine events in ten are single.
struct SingleEventTiming {
  /// The zones met so far, by name bytes (a store uses a handful).
  private var zones: [([UInt8], ZoneRules)] = []

  /// What the timing state says about indexing.
  enum Outcome {
    /// A single event with its one instance.
    case single(RangeItemEntries.Instance)
    /// A single event without a start or an end: not indexed.
    case notIndexed
    /// A recurring series: decode it and expand it with ``RangeItemEntries``.
    case series
  }

  /// Reads the timing state `state` (a payload of ``RangeState/eventTags``).
  mutating func read(_ state: RawSpan) throws -> Outcome {
    let fields = try PayloadFieldIndex(state)
    if fields[13] != nil || fields[15] != nil { return .series }
    guard let startSeconds = try fields.signed(3, in: state), let endSeconds = try fields.signed(4, in: state) else {
      return .notIndexed
    }
    let start = try ModelCodec.wallClock(startSeconds)
    let end = try ModelCodec.wallClock(endSeconds)
    var isAllDay = false
    if let range = fields[5] {
      guard range.count == 1, state.unsafeLoad(fromByteOffset: range.lowerBound, as: UInt8.self) <= 1 else {
        throw StoreError.malformedPayload("field 5 is not a boolean")
      }
      isAllDay = state.unsafeLoad(fromByteOffset: range.lowerBound, as: UInt8.self) == 1
    }
    // On the wall clock when floating or all-day, as `RangeProjection.domain(of:)` says.
    let zone = try isAllDay ? nil : fields[6].map { try self.zone(state.extracting($0)) }
    let (from, to) = RangeProjection.times(start, end, in: zone)
    return .single(
      .init(
        domain: zone == nil ? .wallClock : .absolute, start: from, end: to, occurrence: start.wallClockSeconds,
        flags: isAllDay ? RangeProjection.allDayFlag : 0))
  }

  /// The rules of the zone named by `name` (UTF-8).
  private mutating func zone(_ name: RawSpan) throws -> ZoneRules {
    let known = name.withUnsafeBytes { bytes in zones.first { $0.0.elementsEqual(bytes) } }
    if let known { return known.1 }
    let bytes = name.withUnsafeBytes { Array($0) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw StoreError.malformedPayload("field 6 is not UTF-8 text")
    }
    let rules = try ZoneRules.named(text)
    zones.append((bytes, rules))
    return rules
  }
}
