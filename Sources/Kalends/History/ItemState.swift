/// An object as it was at one version: a calendar, an event (a whole series with its detached
/// occurrences), a reminder, a contact or a group of contacts.
public enum ItemState: Hashable, Sendable {
  case calendar(EventCalendar)
  case event(Event)
  case reminder(Reminder)
  case contact(Contact)
  case group(ContactGroup)

  /// The version the object had: the position of the save that left it so.
  public var version: LogPosition {
    switch self {
    case .calendar(let calendar): calendar.version
    case .event(let event): event.version
    case .reminder(let reminder): reminder.version
    case .contact(let contact): contact.version
    case .group(let group): group.version
    }
  }

  /// How a person names it: a title, a contact's display name, a group's name.
  public var title: String {
    switch self {
    case .calendar(let calendar): calendar.title
    case .event(let event): event.title
    case .reminder(let reminder): reminder.title
    case .contact(let contact): contact.displayName
    case .group(let group): group.name
    }
  }
}
