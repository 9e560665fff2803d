internal import LMDB

/// The range index's bounds at a moment: its horizon and the longest instance of each run. Both only
/// grow as records are applied, and both count what erased records contributed while their content
/// was present; a `contentErased` record carries them, so that a replay of a log with erased
/// records — which cannot see what they contributed — reaches the same index as the store that
/// applied them (``RangeProjection``).
///
/// In the record (docs/log-format.md, `contentErased`): field 5 the ``RangeProjection/version`` they
/// belong to (a replay by another version ignores them: it rebuilds every bound from the log), field
/// 6 the horizon (wall-clock seconds), and one field 7 per run, `calendar (16) ‖ clock (1) ‖ duration
/// class (1) ‖ longest duration (8, seconds, big-endian)`.
struct RangeBounds: Hashable {
  /// One run's longest instance.
  struct Bound: Hashable {
    let calendar: ObjectID
    let domain: UInt8
    let durationClass: UInt8
    let seconds: Int64
  }

  var horizon: Int64?
  var bounds: [Bound]

  /// The bounds stored in `range.meta`.
  static func stored(meta: Database, in txn: borrowing WriteTransaction) throws -> RangeBounds {
    let horizon = try txn.withValue(forKey: RangeProjection.horizonKey, in: meta) { RangeKey.time(in: $0, at: 0) }
    let prefix = RangeProjection.maxDurationPrefix
    var bounds: [Bound] = []
    try txn.withCursor(on: meta) { cursor in
      guard try cursor.seek(atLeast: prefix) else { return }
      try cursor.scanForward { key, value in
        let bytes = Array(copying: key)
        guard bytes.starts(with: prefix), bytes.count == prefix.count + 18 else { return .stop }
        bounds.append(
          Bound(
            calendar: ObjectID(bytes: bytes[prefix.count..<(prefix.count + 16)])!, domain: bytes[prefix.count + 16],
            durationClass: bytes[prefix.count + 17], seconds: RangeKey.time(in: value, at: 0)))
        return .continue
      }
    }
    return RangeBounds(horizon: horizon, bounds: bounds)
  }

  /// Each bound raised to a coarse value: the next power of two seconds, but no further than the
  /// longest duration of its class. A `contentErased` record carries these, never the exact
  /// longest duration of a run, which would tell the erased event's duration when it was the
  /// longest of its calendar. A larger bound only widens a query's look back.
  var coarsened: RangeBounds {
    RangeBounds(
      horizon: horizon,
      bounds: bounds.map { bound in
        var rounded: Int64 = 1
        while rounded < bound.seconds, rounded < Int64.max / 2 { rounded *= 2 }
        let ceiling = RangeKey.longestDuration(ofClass: bound.durationClass)
        return Bound(
          calendar: bound.calendar, domain: bound.domain, durationClass: bound.durationClass,
          seconds: max(bound.seconds, ceiling.map { min(rounded, $0) } ?? rounded))
      })
  }

  /// Appends them to a `contentErased` payload.
  func append(to payload: inout Payload) {
    payload.append(tag: 5, unsigned: UInt64(RangeProjection.version))
    if let horizon { payload.append(tag: 6, signed: horizon) }
    for bound in bounds {
      var bytes = bound.calendar.bytes + [bound.domain, bound.durationClass]
      RecordCodec.appendBigEndian(UInt64(bitPattern: bound.seconds), to: &bytes)
      payload.append(tag: 7, bytes: bytes)
    }
  }

  /// The bounds in a `contentErased` payload; `nil` when they belong to another version of the
  /// index (or there are none).
  init?(payload: RawSpan) throws(StoreError) {
    let fields = try PayloadReader(bytes: payload)
    guard try fields.unsigned(5) == UInt64(RangeProjection.version) else { return nil }
    horizon = try fields.signed(6)
    bounds = []
    for bytes in fields.bytesList(7) {
      guard bytes.count == 26, let calendar = ObjectID(bytes: bytes[0..<16]) else {
        throw .malformedPayload("an index bound is \(bytes.count) bytes, not 26")
      }
      bounds.append(
        Bound(
          calendar: calendar, domain: bytes[16], durationClass: bytes[17],
          seconds: Int64(bitPattern: RecordCodec.readBigEndian(bytes[18...]))))
    }
  }

  init(horizon: Int64?, bounds: [Bound]) {
    self.horizon = horizon
    self.bounds = bounds
  }
}
