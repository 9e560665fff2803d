internal import LMDB

/// What a subscription needs of one record: where, which, when, and the object it changes.
package struct DecodedRecord: Sendable {
  let position: LogPosition
  let hash: RecordHash
  let timestamp: Timestamp
  let object: ChangedObject?
  let kind: ChangeKind?
  /// The calendar an event's record names (after the change), or a calendar's own identifier:
  /// what a session limited to chosen calendars may hear about.
  let calendar: ObjectID?
  /// For an event moved by the record: the calendar it left.
  let movedFrom: ObjectID?
  /// For a contact's save: the dates its new state holds, whose events the birthdays calendar
  /// shows (a removal holds none).
  var contactDates: Set<BirthdayKind> = []

  /// The records `range` of the log, in one snapshot.
  static func read(_ range: ClosedRange<LogPosition>, log: Database, in txn: borrowing ReadTransaction) throws
    -> [DecodedRecord]
  {
    var records: [DecodedRecord] = []
    try txn.withCursor(on: log) { cursor in
      guard try cursor.seek(atLeast: BigEndianKey(range.lowerBound.rawValue)) else { return }
      var principals = PrincipalCache()
      try cursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        let header = decoded.header
        let change = try ChangeExtractor.change(header, value.extracting(decoded.payload))
        var record = DecodedRecord(
          position: header.position, hash: header.hash, timestamp: header.timestamp, object: change?.object,
          kind: change?.kind, calendar: change?.calendar, movedFrom: change?.movedFrom)
        if header.kind == .contactSaved {
          record.contactDates = try ChangeExtractor.contactDates(value.extracting(decoded.payload))
        }
        records.append(record)
        return header.position < range.upperBound ? .continue : .stop
      }
    }
    return records
  }
}
