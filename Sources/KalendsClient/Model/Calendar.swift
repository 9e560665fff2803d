/// A calendar the app may see: EventKit's `EKCalendar`, as the server describes it.
public struct Calendar: Sendable, Hashable, Decodable, Identifiable {
  /// Its identifier (`calendarIdentifier`).
  public let id: String
  /// Its title.
  public let title: String
  /// Its color, `#RRGGBB`.
  public let color: String?
  /// Whether events can be added to and changed in it.
  public let allowsContentModifications: Bool?
  /// Its version, as the server's entity tag gives it: equal while the calendar is unchanged,
  /// otherwise meaningless to the app (it counts nothing).
  public let version: String
}
