internal import LMDB

extension EventStore {
  /// Whether a record after `position` may change which alarms fire: a save of an event or
  /// reminder that carries an alarm (also on a changed occurrence), or any change of an item or a
  /// calendar in `planned` (the items and calendars of the alarms already planned: a calendar's
  /// removal takes its items); also when
  /// more than `limit` records came after it. Reads the records themselves, not their objects:
  /// the saves of items without alarms, most of them, cost a look at their fields.
  ///
  /// - Returns: The log's head read, and whether the alarms must be planned again.
  package func alarmsMayHaveChanged(
    after position: LogPosition, planned: Set<ObjectID>, limit: Int = 10_000
  ) throws(StoreError) -> (head: LogPosition, changed: Bool) {
    var changed = false
    let (head, whole) = try recordsAfter(position, limit: limit) { header, payload in
      guard let change = try ChangeExtractor.change(header, payload) else { return true }
      switch change.object {
      case .event(let id), .reminder(let id), .calendar(let id):
        // A calendar's removal takes its items: it is named itself.
        changed = planned.contains(id)
      default: break
      }
      if !changed, header.content == .present, header.kind == .eventSaved || header.kind == .reminderSaved {
        changed = try Self.carriesAlarm(header.kind, PayloadReader(bytes: payload))
      }
      return !changed
    }
    return (head, changed || !whole)
  }

  /// Reads the log's head and hands each record after `position` up to it, in order, to `body`
  /// (its header and payload) until `body` returns `false`, in one snapshot; hands none when more
  /// than `limit` came after `position` (`whole` is `false` then).
  func recordsAfter(
    _ position: LogPosition, limit: Int, _ body: (LogRecordHeader, RawSpan) throws -> Bool
  ) throws(StoreError) -> (head: LogPosition, whole: Bool) {
    let (store, log) = (self.store, self.store.log)
    return try StoreError.wrapping {
      try store.environment.read { txn in
        let head = try Store.loadHead(meta: store.meta, in: txn).position
        guard head > position else { return (head, true) }
        guard head.rawValue - position.rawValue <= UInt64(limit) else { return (head, false) }
        try txn.withCursor(on: log) { cursor in
          guard try cursor.seek(atLeast: BigEndianKey(position.rawValue + 1)) else { return }
          var principals = PrincipalCache()
          try cursor.scanForward { _, value in
            let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
            return try body(decoded.header, value.extracting(decoded.payload)) ? .continue : .stop
          }
        }
        return (head, true)
      }
    }
  }

  /// Whether a save's state holds an alarm: an event's (field 12) or one of its changed
  /// occurrences' (12 in 16), a reminder's (10).
  static func carriesAlarm(_ kind: RecordKind, _ fields: PayloadReader) throws -> Bool {
    guard let state = try fields.messages(5).first else { return false }
    if kind == .reminderSaved { return state.bytes(10) != nil }
    if state.bytes(12) != nil { return true }
    return try state.messages(16).contains { $0.bytes(12) != nil }
  }
}
