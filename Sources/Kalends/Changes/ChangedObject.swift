/// Something a change notice names: a calendar, an event or reminder (a whole item: a series with
/// its occurrences), a contact or a group of contacts, or a client app whose registration or access
/// changed.
public enum ChangedObject: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// A calendar. When a calendar is removed its events and reminders go with it; the notice names
  /// only the calendar.
  case calendar(ObjectID)
  /// An event: a single event or a whole series (also when one occurrence changed).
  case event(ObjectID)
  /// A reminder.
  case reminder(ObjectID)
  /// A contact (also when its group memberships changed).
  case contact(ObjectID)
  /// A group of contacts. When a group is removed its members stay; the notice names only the
  /// group.
  case group(ObjectID)
  /// A client app, by its identifier.
  case client(String)

  public var description: String {
    switch self {
    case .calendar(let id): "calendar \(id)"
    case .event(let id): "event \(id)"
    case .reminder(let id): "reminder \(id)"
    case .contact(let id): "contact \(id)"
    case .group(let id): "group \(id)"
    case .client(let id): "client \(id)"
    }
  }

  /// `calendar`, `event`, `reminder`, `contact`, `group` or `client`.
  public var entity: String {
    switch self {
    case .calendar: "calendar"
    case .event: "event"
    case .reminder: "reminder"
    case .contact: "contact"
    case .group: "group"
    case .client: "client"
    }
  }

  /// The identifier, as text.
  public var identifier: String {
    switch self {
    case .calendar(let id), .event(let id), .reminder(let id), .contact(let id), .group(let id): id.description
    case .client(let id): id
    }
  }

  public static func < (lhs: ChangedObject, rhs: ChangedObject) -> Bool {
    (lhs.rank, lhs.identifier) < (rhs.rank, rhs.identifier)
  }

  private var rank: Int {
    switch self {
    case .calendar: 0
    case .event: 1
    case .reminder: 2
    case .contact: 3
    case .group: 4
    case .client: 5
    }
  }
}
