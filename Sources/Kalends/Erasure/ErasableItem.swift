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

  /// The object of `kind` with `id`.
  init(_ kind: ObjectKind, _ id: ObjectID) {
    switch kind {
    case .calendar: self = .calendar(id)
    case .event: self = .event(id)
    case .reminder: self = .reminder(id)
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
}

/// The objects a search of the log looks for at once (``EventStore/applyRetention(now:)`` erases
/// many in one pass over the log).
struct ErasureTargets {
  private var items: [ObjectKind: Set<ObjectID>] = [:]

  init(_ targets: [ErasableItem]) {
    for item in targets { items[item.objectKind, default: []].insert(item.id) }
  }

  /// The targets whose content the record with `header` and `payload` carries: a save of one, or
  /// — for a calendar — a save of an item into it. Records already erased carry none.
  func items(carriedBy header: LogRecordHeader, payload: RawSpan) throws(StoreError) -> [ErasableItem] {
    guard header.content == .present else { return [] }
    let kind: ObjectKind
    switch header.kind {
    case .calendarSaved: kind = .calendar
    case .eventSaved: kind = .event
    case .reminderSaved: kind = .reminder
    default: return []
    }
    let fields = try PayloadFieldIndex(payload)
    var found: [ErasableItem] = []
    let id = try fields.requiredObjectID(1, in: payload)
    if items[kind]?.contains(id) == true { found.append(ErasableItem(kind, id)) }
    if kind != .calendar, let calendars = items[.calendar], !calendars.isEmpty {
      let calendar = try fields.requiredObjectID(2, in: payload)
      if calendars.contains(calendar) { found.append(.calendar(calendar)) }
    }
    return found
  }
}
