/// A protected kind of data an app must be granted access to (iOS's TCC services).
public enum Service: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// Events and calendars.
  case calendars = 1
  /// Reminders and reminder lists.
  case reminders = 2
  /// Contacts and groups of contacts.
  case contacts = 3

  /// The name used in the CLI and JSON: `calendars`, `reminders`, `contacts`.
  public var description: String {
    switch self {
    case .calendars: "calendars"
    case .reminders: "reminders"
    case .contacts: "contacts"
    }
  }

  /// The service named `name`, or `nil`.
  public init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = match
  }
}

/// The level of access an app asks for.
public enum AccessLevel: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// Read and write everything of the service.
  case full = 1
  /// Only add new events; see none (calendars only).
  case writeOnly = 2

  public var description: String { self == .full ? "full" : "write-only" }
}
