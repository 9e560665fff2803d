/// An object whose content ``EventStore/erase(_:reason:)`` can erase.
///
/// Privacy records (registrations, requests, decisions, refusals) are never erasable: they are what
/// the audit replays.
public enum ErasableItem: Hashable, Sendable, CustomStringConvertible {
  /// A calendar: its own records, and every record that saved an event or a reminder into it.
  case calendar(ObjectID)
  /// An event or a whole recurring series: every record that saved it.
  case event(ObjectID)
  /// A reminder: every record that saved it.
  case reminder(ObjectID)

  /// Its identifier.
  public var id: ObjectID {
    switch self {
    case .calendar(let id), .event(let id), .reminder(let id): id
    }
  }

  public var description: String {
    switch self {
    case .calendar(let id): "calendar \(id)"
    case .event(let id): "event \(id)"
    case .reminder(let id): "reminder \(id)"
    }
  }

  /// Its number in a `contentErased` record (the objects projection's type).
  var objectKind: ObjectKind {
    switch self {
    case .calendar: .calendar
    case .event: .event
    case .reminder: .reminder
    }
  }

  /// Whether the record with `header` and `payload` carries content of this object: a save of it,
  /// or — for a calendar — a save of an item into it. Records already erased do not.
  func isCarried(by header: LogRecordHeader, payload: RawSpan) throws(StoreError) -> Bool {
    guard header.content == .present else { return false }
    switch (self, header.kind) {
    case (.event(let id), .eventSaved), (.reminder(let id), .reminderSaved), (.calendar(let id), .calendarSaved):
      return try PayloadFieldIndex(payload).requiredObjectID(1, in: payload) == id
    case (.calendar(let id), .eventSaved), (.calendar(let id), .reminderSaved):
      return try PayloadFieldIndex(payload).requiredObjectID(2, in: payload) == id
    default:
      return false
    }
  }
}
