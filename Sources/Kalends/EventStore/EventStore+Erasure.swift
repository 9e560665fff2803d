internal import LMDB

extension EventStore {
  /// Erases the content of `item` — titles, notes, places, times, rules: the content of every
  /// record that saved it (docs/transparency.md, "Erasure").
  ///
  /// In one transaction: removes the object when it is still there (a `…Removed` record by the
  /// person), rewrites each record that carried its content in its erased form — the header (time,
  /// actor, kind), the object's identifier and calendar and what the change was are kept, the
  /// content and its salt are gone, the record's hash stays what it was — and appends a
  /// `contentErased` record naming them. Every checkpoint, every inclusion proof and the chain
  /// stay valid; `verify`, a rebuild and the audit work on the erased log. The erased bytes leave
  /// `data.mdb` when LMDB reuses their pages, or at once with `kalends store compact`; a backup
  /// taken afterwards never holds them.
  ///
  /// Records written before format version 3 lose their content too, but nothing left in them can
  /// be checked against their hash any more (``RecordContent/erasedUnverifiable``).
  ///
  /// - Parameter reason: Why, written into the `contentErased` record (no content of the object
  ///   belongs there).
  /// - Throws: ``AccessError/ownerOnly(_:)`` for an app (recorded); ``CalendarError`` when no such
  ///   object ever existed.
  @discardableResult
  public func erase(_ item: ErasableItem, reason: String? = nil) throws(StoreError) -> Erasure {
    try requireOwner("erase content")
    try Self.checkText(reason, field: "reason")
    let range = try store.projection(RangeProjection.self)
    let log = store.log
    // Most of the log is searched in a snapshot, without holding the writer's lock; what was
    // appended since is searched inside the write.
    let (seen, carried) = try StoreError.wrapping {
      try store.environment.read { txn in
        let head = try Store.loadHead(meta: store.meta, in: txn).position
        return (head, try Self.positions(carrying: item, in: log, after: .none, txn: txn))
      }
    }
    return try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(item.objectKind, item.id, in: txn) else {
        switch item {
        case .calendar(let id): throw StoreError.calendar(.calendarNotFound(id))
        case .event(let id), .reminder(let id): throw StoreError.calendar(.itemNotFound(id))
        }
      }
      var removal: LogPosition?
      if stored.isLive {
        var payload = Payload()
        payload.append(tag: 1, id: item.id)
        let kind: RecordKind
        switch item {
        case .calendar: kind = .calendarRemoved
        case .event: kind = .eventRemoved
        case .reminder: kind = .reminderRemoved
        }
        if kind != .calendarRemoved { payload.append(tag: 2, id: stored.calendarID) }
        removal = try appender.append(RecordDraft(kind: kind, principal: .person, payload: payload), in: &txn).position
      }
      let positions = try carried + txn.reading { try Self.positions(carrying: item, in: log, after: seen, txn: $0) }
      guard !positions.isEmpty else {
        return Erasure(item: item, removal: removal, erasedPositions: [], record: nil)
      }
      for position in positions {
        let key = BigEndianKey(position.rawValue)
        let erased = try txn.withValue(forKey: key, in: log) { try RecordCodec.erasing($0) }
        guard let erased = erased ?? nil else { continue }
        try txn.put(erased, forKey: key, in: log)
      }
      var payload = Payload()
      payload.append(tag: 1, unsigned: UInt64(item.objectKind.rawValue))
      payload.append(tag: 2, id: item.id)
      for position in positions { payload.append(tag: 3, unsigned: position.rawValue) }
      if let reason { payload.append(tag: 4, string: reason) }
      try RangeBounds.stored(meta: range.meta, in: txn).append(to: &payload)
      let record = try appender.append(
        RecordDraft(kind: .contentErased, principal: .person, payload: payload), in: &txn)
      return Erasure(item: item, removal: removal, erasedPositions: positions, record: record.position)
    }
  }

  /// The positions after `after` of the records that still carry content of `item`, in log order.
  static func positions(
    carrying item: ErasableItem, in log: Database, after: LogPosition, txn: borrowing ReadTransaction
  ) throws -> [LogPosition] {
    var found: [LogPosition] = []
    try txn.withCursor(on: log) { cursor in
      guard try cursor.seek(atLeast: BigEndianKey(after.rawValue + 1)) else { return }
      var principals = PrincipalCache()
      try cursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        if try item.isCarried(by: decoded.header, payload: value.extracting(decoded.payload)) {
          found.append(decoded.header.position)
        }
        return .continue
      }
    }
    return found
  }
}
