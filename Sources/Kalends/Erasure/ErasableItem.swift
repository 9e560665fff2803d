/// An object whose content ``PrivacySettings/erase(_:reason:)`` can erase.
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
  /// A contact: every record that saved it (its group memberships with it).
  case contact(ObjectID)
  /// A group of contacts: every record that saved it (its name).
  case group(ObjectID)

  /// The kinds of objects, without an identifier.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case calendar, event, reminder, contact, group

    /// The object of this kind with `id`.
    public func item(_ id: ObjectID) -> ErasableItem {
      switch self {
      case .calendar: .calendar(id)
      case .event: .event(id)
      case .reminder: .reminder(id)
      case .contact: .contact(id)
      case .group: .group(id)
      }
    }

    /// Its number in a `contentErased` record: the type byte of the objects projection's keys
    /// (1–3), or of the contacts projection's (4–5).
    var typeNumber: UInt8 {
      switch self {
      case .calendar: ObjectKind.calendar.rawValue
      case .event: ObjectKind.event.rawValue
      case .reminder: ObjectKind.reminder.rawValue
      case .contact: ContactObjectKind.contact.rawValue
      case .group: ContactObjectKind.group.rawValue
      }
    }
  }

  /// Its kind.
  public var kind: Kind {
    switch self {
    case .calendar: .calendar
    case .event: .event
    case .reminder: .reminder
    case .contact: .contact
    case .group: .group
    }
  }

  /// Its identifier.
  public var id: ObjectID {
    switch self {
    case .calendar(let id), .event(let id), .reminder(let id), .contact(let id), .group(let id): id
    }
  }

  public var description: String {
    switch self {
    case .calendar(let id): "calendar \(id)"
    case .event(let id): "event \(id)"
    case .reminder(let id): "reminder \(id)"
    case .contact(let id): "contact \(id)"
    case .group(let id): "group \(id)"
    }
  }

  /// The object of `kind` with `id`; `nil` for an account, whose state holds no content to erase.
  init?(_ kind: ObjectKind, _ id: ObjectID) {
    switch kind {
    case .calendar: self = .calendar(id)
    case .event: self = .event(id)
    case .reminder: self = .reminder(id)
    case .source: return nil
    }
  }

  /// The object of `kind` with `id`.
  init(_ kind: ContactObjectKind, _ id: ObjectID) {
    self = kind == .contact ? .contact(id) : .group(id)
  }

  /// Its number in a `contentErased` record (``Kind/typeNumber``).
  var typeNumber: UInt8 { kind.typeNumber }
}

/// The objects a search of the log looks for at once (``PrivacySettings/applyRetention(now:)`` erases
/// many in one pass over the log).
struct ErasureTargets {
  private var items: [UInt8: Set<ObjectID>] = [:]

  init(_ targets: [ErasableItem]) {
    for item in targets { items[item.typeNumber, default: []].insert(item.id) }
  }

  /// The targets whose content the record with `header` and `payload` carries: a save of one, or
  /// — for a calendar — a save of an item into it. Records already erased carry none.
  func items(carriedBy header: LogRecordHeader, payload: RawSpan) throws(StoreError) -> [ErasableItem] {
    guard header.content == .present else { return [] }
    let fields = try PayloadFieldIndex(payload)
    let kind: ObjectKind
    switch header.kind {
    case .calendarSaved: kind = .calendar
    case .eventSaved: kind = .event
    case .reminderSaved: kind = .reminder
    case .contactSaved, .groupSaved:
      let contactKind: ContactObjectKind = header.kind == .contactSaved ? .contact : .group
      let id = try fields.requiredObjectID(1, in: payload)
      return items[contactKind.rawValue]?.contains(id) == true ? [ErasableItem(contactKind, id)] : []
    default: return []
    }
    var found: [ErasableItem] = []
    let id = try fields.requiredObjectID(1, in: payload)
    if items[kind.rawValue]?.contains(id) == true, let item = ErasableItem(kind, id) { found.append(item) }
    if kind != .calendar, let calendars = items[ObjectKind.calendar.rawValue], !calendars.isEmpty {
      let calendar = try fields.requiredObjectID(2, in: payload)
      if calendars.contains(calendar) { found.append(.calendar(calendar)) }
    }
    return found
  }
}
