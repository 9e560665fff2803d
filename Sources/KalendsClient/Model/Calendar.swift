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
  /// The log position of its last change.
  public let version: Int
}
