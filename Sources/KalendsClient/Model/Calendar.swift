/// A calendar or reminder list the app may see: EventKit's `EKCalendar`, as the server
/// describes it.
public struct Calendar: Sendable, Hashable, Decodable, Identifiable {
  /// Its identifier (`calendarIdentifier`).
  public let id: String
  /// Its title; changed with ``EventStore/saveCalendar(_:)``.
  public var title: String
  /// Its color, `#RRGGBB`; changed with ``EventStore/saveCalendar(_:)``.
  public var color: String?
  /// Whether events can be added to and changed in it.
  public let allowsContentModifications: Bool?
  /// What it holds: `events`, `reminders` or both.
  public let allowedEntityTypes: [String]?
  /// Where it comes from.
  public let source: Source?
  /// Its version, as the server's entity tag gives it: equal while the calendar is unchanged,
  /// otherwise meaningless to the app (it counts nothing).
  public let version: String
}

/// Where calendars come from: EventKit's `EKSource`.
public struct Source: Sendable, Hashable, Decodable, Identifiable {
  /// Its identifier (`sourceIdentifier`).
  public let id: String
  /// Its name (`On My Computer` for the store's own).
  public let title: String
  /// The kind of account: `local`, `calDAV`, `exchange`, `subscribed`, `birthdays`, `mobileMe`.
  public let kind: String
}
