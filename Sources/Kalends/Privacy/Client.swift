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
    /// `NSCalendarsUsageDescription`: what apps built before iOS 17 explain calendar access with.
    case calendars = 11
    /// `NSRemindersUsageDescription`: what apps built before iOS 17 explain reminder access with.
    case reminders = 12

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
      case .calendars: "calendars"
      case .reminders: "reminders"
      }
    }

    /// The Info.plist key.
    public var key: String {
      switch self {
      case .calendarsFull: "NSCalendarsFullAccessUsageDescription"
      case .calendarsWriteOnly: "NSCalendarsWriteOnlyAccessUsageDescription"
      case .remindersFull: "NSRemindersFullAccessUsageDescription"
      case .contacts: "NSContactsUsageDescription"
      case .calendars: "NSCalendarsUsageDescription"
      case .reminders: "NSRemindersUsageDescription"
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
  /// The major version of the system the app was built for (its SDK): ``oldestSDK`` … ``currentSDK``.
  /// What it may call and what it sees follow that system (docs/privacy.md): built for iOS 5 it has
  /// no request API; built for 6–16 it asks with `requestAccess(to:)` and sees write-only access as
  /// `authorized`; built for 17 (the default) it has today's API.
  public var sdk: Int
  /// The log position that last registered or changed it; `.none` before it is registered.
  public internal(set) var version: LogPosition

  /// The oldest system an app can be built for here: iOS 5, before apps asked for calendar access.
  public static let oldestSDK = 5
  /// The system whose semantics are today's: iOS 17 (full and write-only calendar access).
  public static let currentSDK = 17

  /// The usage description key a request of `level` access to `service` needs from this app, by
  /// the system it was built for: `NSCalendarsUsageDescription` (or the reminders' one) before
  /// iOS 17, the full and write-only keys from 17 on; `nil` when that request does not exist.
  public func usage(for service: Service, _ level: AccessLevel) -> Usage? {
    guard sdk < Self.currentSDK else { return Usage(service, level) }
    switch service {
    case .calendars: return .calendars
    case .reminders: return level == .full ? .reminders : nil
    case .contacts: return level == .full ? .contacts : nil
    }
  }

  /// A client to register.
  public init(
    id: String, name: String, usageDescriptions: [Usage: String] = [:], requirement: CodeRequirement? = nil,
    sdk: Int = Client.currentSDK
  ) {
    self.id = id
    self.name = name
    self.usageDescriptions = usageDescriptions
    self.requirement = requirement
    self.sdk = sdk
    self.version = .none
  }
}
