internal import LMDB

/// The words of events and reminders — their titles, locations and notes, and those of an event's
/// occurrences changed on their own — for finding items by what they say.
///
/// Databases:
/// - `search.words`: key `word ‖ 0x00 ‖ kind (1: 2 event, 3 reminder) ‖ id (16)`, empty value:
///   every item whose text holds a word that starts with a prefix is one range of keys. Words are
///   ``SearchWords``.
/// - `search.items`: key `kind (1) ‖ id (16)`, value `calendar (16)` then each of its words, sorted,
///   followed by 0x00: what the next change of the item removes, without reading the log, and the
///   items a calendar's removal takes (found by reading every entry: calendars are removed rarely,
///   and a key per item and calendar would cost every rebuild a million more rows).
///
/// Only live items are indexed. Words come from the state of the record applied (an erased one
/// says nothing); a removal or a calendar's removal unindexes, and so does an erasure of an
/// item's content (or of a calendar's, with the items in it): no word of erased content stays in
/// the index, and a replay of an erased log reaches the same keys.
struct ItemSearchProjection: Projection {
  static let name = "search"
  static let version: UInt32 = 1
  enum DatabaseName {
    static let words = "search.words"
    static let items = "search.items"
  }
  static let databaseNames = [DatabaseName.words, DatabaseName.items]
  static let kinds: Set<RecordKind> = [
    .eventSaved, .eventRemoved, .reminderSaved, .reminderRemoved, .calendarRemoved, .contentErased,
  ]

  let words: Database
  let items: Database

  init(databases: [String: Database], log: Database) {
    words = databases[DatabaseName.words]!
    items = databases[DatabaseName.items]!
  }

  func makeBulkLoader() -> (any ProjectionBulkLoader)? { ItemSearchBulkLoader(self) }

  /// Appends to `entry` the `search.items` entry of a saved item — its calendar, then its words
  /// (``SearchWords``) — and returns the item.
  static func entry(
    _ header: LogRecordHeader, payload: RawSpan, into entry: inout [UInt8], scratch: inout SearchWords.Scratch
  ) throws -> (ObjectKind, ObjectID) {
    let fields = try PayloadFieldIndex(payload)
    let kind: ObjectKind = header.kind == .eventSaved ? .event : .reminder
    let id = try fields.requiredObjectID(1, in: payload)
    try fields.requiredObjectID(2, in: payload).append(to: &entry)
    if let state = fields[5] {
      try payload.withUnsafeBytes { bytes throws(StoreError) in
        try SearchWords.append(ofState: state, in: bytes, kind, to: &entry, scratch: &scratch)
      }
    }
    return (kind, id)
  }

  /// The key in `search.words` of `word` (its bytes) of an item.
  static func key(_ word: some Collection<UInt8>, _ kind: ObjectKind, _ id: ObjectID) -> [UInt8] {
    Array(word) + [0, kind.rawValue] + id.bytes
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    switch header.kind {
    case .eventSaved, .reminderSaved:
      var (entry, scratch) = ([UInt8](), SearchWords.Scratch())
      let (kind, id) = try Self.entry(header, payload: payload, into: &entry, scratch: &scratch)
      try unindex(kind, id, &txn)
      for word in entry[16...].split(separator: 0) {
        try txn.put([UInt8](), forKey: Self.key(word, kind, id), in: words)
      }
      try txn.put(entry, forKey: kind.key(id), in: items)
    case .eventRemoved, .reminderRemoved:
      let id = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      try unindex(header.kind == .eventRemoved ? .event : .reminder, id, &txn)
    case .calendarRemoved:
      try unindexCalendar(try PayloadFieldIndex(payload).requiredObjectID(1, in: payload), &txn)
    case .contentErased:
      // Field 1 is the objects projection's type byte (docs/log-format.md); contacts are not here.
      let fields = try PayloadReader(bytes: payload)
      let id = try fields.requiredObjectID(2)
      switch try fields.unsigned(1).flatMap({ ObjectKind(rawValue: UInt8(truncatingIfNeeded: $0)) }) {
      case .calendar: try unindexCalendar(id, &txn)
      case .event: try unindex(.event, id, &txn)
      case .reminder: try unindex(.reminder, id, &txn)
      case .source, nil: break
      }
    default:
      break
    }
  }

  /// Removes every item whose entry names the calendar.
  private func unindexCalendar(_ calendar: ObjectID, _ txn: inout WriteTransaction) throws {
    var held: [(ObjectKind, ObjectID)] = []
    try txn.withCursor(on: items) { cursor in
      try cursor.scanForward { key, value in
        let inCalendar = value.withUnsafeBytes { $0.count >= 16 && $0[..<16].elementsEqual(calendar.bytes) }
        if inCalendar, let item = key.withUnsafeBytes({ Self.item($0) }) { held.append(item) }
        return .continue
      }
    }
    for (kind, id) in held { try unindex(kind, id, &txn) }
  }

  /// The kind and id of a `search.items` key.
  private static func item(_ key: UnsafeRawBufferPointer) -> (ObjectKind, ObjectID)? {
    guard key.count == 17, let kind = ObjectKind(rawValue: key[0]), let id = ObjectID(bytes: key[1...]) else {
      return nil
    }
    return (kind, id)
  }

  /// Removes every key of the item.
  private func unindex(_ kind: ObjectKind, _ id: ObjectID, _ txn: inout WriteTransaction) throws {
    guard let entry = try txn.withValue(forKey: kind.key(id), in: items, { Array(copying: $0) }), entry.count >= 16
    else { return }
    for word in entry[16...].split(separator: 0) { try txn.delete(Self.key(word, kind, id), in: words) }
    try txn.delete(kind.key(id), in: items)
  }

  // MARK: Reading

  /// The items of `kind` whose words include one starting with each of `prefixes` (folded), by
  /// id. The candidates are those of the prefix with the fewest keys, found without counting any:
  /// every prefix's range is read a batch at a time, in turns, until one ends; the other prefixes
  /// are then checked against each candidate's entry. A common word beside a rare one costs a
  /// batch per turn, not its whole range.
  func items(_ kind: ObjectKind, matching prefixes: [String], in txn: borrowing ReadTransaction) throws -> [ObjectID] {
    let wanted = Array(Set(prefixes.map { Array($0.utf8) })).sorted { $0.count > $1.count }
    guard !wanted.isEmpty else { return [] }
    let batch = 256
    var resume = wanted
    var found = Array(repeating: [ObjectID](), count: wanted.count)
    var smallest: Int?
    try txn.withCursor(on: words) { cursor in
      while smallest == nil {
        for index in wanted.indices {
          var (read, ended) = (0, true)
          if try cursor.seek(atLeast: resume[index]) {
            try cursor.scanForward { key, _ in
              key.withUnsafeBytes { bytes in
                guard bytes.starts(with: wanted[index]) else { return .stop }
                guard read < batch else {
                  (resume[index], ended) = (Array(bytes), false)
                  return .stop
                }
                read += 1
                // word ‖ 0 ‖ kind ‖ id
                if bytes.count >= 18, bytes[bytes.count - 17] == kind.rawValue, bytes[bytes.count - 18] == 0,
                  let id = ObjectID(bytes: bytes[(bytes.count - 16)...])
                {
                  found[index].append(id)
                }
                return .continue
              }
            }
          }
          if ended {
            smallest = index
            break
          }
        }
      }
    }
    guard let smallest else { return [] }
    let others = wanted.indices.filter { $0 != smallest }.map { wanted[$0] }
    return try Set(found[smallest]).filter { id in
      guard !others.isEmpty else { return true }
      guard let entry = try txn.withValue(forKey: kind.key(id), in: items, { Array(copying: $0) }) else { return false }
      let itemWords = entry[16...].split(separator: 0)
      return others.allSatisfy { prefix in itemWords.contains { $0.starts(with: prefix) } }
    }
    .sorted()
  }
}
