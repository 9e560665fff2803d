internal import LMDB

/// Reads an item's history from the log: every record that saved it, removed it (also with its
/// calendar) or erased its content, in log order. One pass over the log: the log is the truth, and
/// a history is read far less often than records are written, so no index is kept for it.
enum ItemHistory {
  /// The versions of `item`, in log order; empty when no record names it.
  static func versions(
    of item: ErasableItem, in log: Database, txn: borrowing ReadTransaction
  ) throws -> [ItemVersion] {
    var versions: [ItemVersion] = []
    var calendar: ObjectID?
    var live = false
    try txn.withCursor(on: log) { cursor in
      guard try cursor.seek(atLeast: BigEndianKey(UInt64(1))) else { return }
      var principals = PrincipalCache()
      try cursor.scanForward { _, value in
        let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
        let header = decoded.header
        let kind = header.kind
        guard kind == item.saveKind || kind == item.removeKind || kind == .calendarRemoved || kind == .contentErased
        else { return .continue }
        let payload = value.extracting(decoded.payload)
        let fields = try PayloadFieldIndex(payload)
        var action: ItemVersion.Action
        switch kind {
        case .calendarRemoved:
          let removed = try fields.requiredObjectID(1, in: payload)
          if removed == item.id {
            action = .removed
          } else {
            guard live, removed == calendar else { return .continue }
            action = .removedWithCalendar(removed)
          }
        case .contentErased:
          let reader = try PayloadReader(bytes: payload)
          guard try reader.unsigned(1) == UInt64(item.typeNumber), try reader.objectID(2) == item.id else {
            return .continue
          }
          action = .contentErased
        default:
          guard try fields.requiredObjectID(1, in: payload) == item.id else { return .continue }
          action = .removed
        }
        var restoredFrom: LogPosition?
        var splitFrom: ObjectID?
        var state: ItemState?
        if kind == item.saveKind {
          let reader = try PayloadReader(bytes: payload)
          guard let change = try reader.unsigned(3).flatMap(ItemChange.init(rawValue:)) else {
            throw StoreError.malformedPayload("the \(kind) record at \(header.position) has no valid change")
          }
          action = .saved(change)
          restoredFrom = try reader.unsigned(8).map { LogPosition($0) }
          if case .event = item { splitFrom = try reader.objectID(6) }
          if item.holdsItems { calendar = try reader.requiredObjectID(2) }
          if header.content == .present, let saved = try reader.messages(5).first {
            state = try decode(item, saved, calendar: calendar, version: header.position, modified: header.timestamp)
          }
          live = true
        } else if action != .contentErased {
          live = false
        }
        versions.append(
          ItemVersion(
            position: header.position, timestamp: header.timestamp, principal: header.principal, action: action,
            restoredFrom: restoredFrom, splitFrom: splitFrom, content: header.content, state: state))
        return .continue
      }
    }
    return versions
  }

  /// `item` as the saved state `state` describes it, at `version`.
  static func decode(
    _ item: ErasableItem, _ state: PayloadReader, calendar: ObjectID?, version: LogPosition, modified: Timestamp
  ) throws(StoreError) -> ItemState {
    switch item {
    case .calendar(let id): .calendar(try ModelCodec.decodeCalendar(id: id, version: version, state))
    case .event(let id):
      .event(
        try ModelCodec.decodeEvent(
          id: id, calendarID: calendar ?? id, version: version, modified: modified, state))
    case .reminder(let id):
      .reminder(
        try ModelCodec.decodeReminder(
          id: id, calendarID: calendar ?? id, version: version, modified: modified, state))
    case .contact(let id): .contact(try ContactCodec.decodeContact(id: id, version: version, modified: modified, state))
    case .group(let id): .group(try ContactCodec.decodeGroup(id: id, version: version, modified: modified, state))
    }
  }
}

extension ErasableItem {
  /// The kind of the records that save it.
  var saveKind: RecordKind {
    switch self {
    case .calendar: .calendarSaved
    case .event: .eventSaved
    case .reminder: .reminderSaved
    case .contact: .contactSaved
    case .group: .groupSaved
    }
  }

  /// The kind of the records that remove it.
  var removeKind: RecordKind {
    switch self {
    case .calendar: .calendarRemoved
    case .event: .eventRemoved
    case .reminder: .reminderRemoved
    case .contact: .contactRemoved
    case .group: .groupRemoved
    }
  }

  /// Whether it is an event or a reminder: an item of a calendar, which names it in field 2.
  var holdsItems: Bool {
    switch self {
    case .event, .reminder: true
    default: false
    }
  }
}
