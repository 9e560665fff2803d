/// Which kinds of item a calendar holds (EventKit's `EKEntityMask`).
public struct EntityTypes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Events.
  public static let events = EntityTypes(rawValue: 1)
  /// Reminders.
  public static let reminders = EntityTypes(rawValue: 2)
}
