/// An app registered with the store: its identifier, the name the person sees, and its usage
/// descriptions (the Info.plist keys that explain why it asks).
public struct Client: Hashable, Sendable {
  /// Which usage description: a service at a level.
  public enum Usage: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `NSCalendarsFullAccessUsageDescription`.
    case calendarsFull = 3
    /// `NSCalendarsWriteOnlyAccessUsageDescription`.
    case calendarsWriteOnly = 4
    /// `NSRemindersFullAccessUsageDescription`.
    case remindersFull = 5
    /// `NSContactsUsageDescription`.
    case contacts = 6

    /// The usage that explains `level` access to `service`; `nil` when that combination does not exist.
    public init?(_ service: Service, _ level: AccessLevel) {
      switch (service, level) {
      case (.calendars, .full): self = .calendarsFull
      case (.calendars, .writeOnly): self = .calendarsWriteOnly
      case (.reminders, .full): self = .remindersFull
      case (.contacts, .full): self = .contacts
      default: return nil
      }
    }

    /// The CLI name: `calendars-full`, `calendars-write-only`, `reminders-full`, `contacts`.
    public var description: String {
      switch self {
      case .calendarsFull: "calendars-full"
      case .calendarsWriteOnly: "calendars-write-only"
      case .remindersFull: "reminders-full"
      case .contacts: "contacts"
      }
    }

    /// The usage named `name`, or `nil`.
    public init?(name: String) {
      guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
      self = match
    }
  }

  /// The app's identifier (a reverse-DNS bundle identifier such as `com.example.planner`).
  public let id: String
  /// The name shown to the person.
  public var name: String
  /// Why it asks, per usage.
  public var usageDescriptions: [Usage: String]
  /// What its processes must be for the store server to take them for this app; `nil`: it cannot
  /// be identified by the server (only reached through sessions the owner opens).
  public var requirement: CodeRequirement?
  /// The log position that last registered or changed it; `.none` before it is registered.
  public internal(set) var version: LogPosition

  /// A client to register.
  public init(
    id: String, name: String, usageDescriptions: [Usage: String] = [:], requirement: CodeRequirement? = nil
  ) {
    self.id = id
    self.name = name
    self.usageDescriptions = usageDescriptions
    self.requirement = requirement
    self.version = .none
  }
}
