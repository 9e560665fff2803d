/// Whether an app may use a service (EventKit's `EKAuthorizationStatus`, same raw values).
public enum AuthorizationStatus: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The person has not been asked.
  case notDetermined = 0
  /// A policy forbids it; the person cannot change it until the policy is lifted.
  case restricted = 1
  /// The person said no (or the app asked without a usage description).
  case denied = 2
  /// The app may read and write the service.
  case fullAccess = 3
  /// The app may only add events, and sees none (calendars only).
  case writeOnly = 4
  /// The app may read and write only the contacts the person chose for it and those it created
  /// (iOS 18's `CNAuthorizationStatus.limited`; contacts only).
  case limited = 5

  public var description: String {
    switch self {
    case .notDetermined: "notDetermined"
    case .restricted: "restricted"
    case .denied: "denied"
    case .fullAccess: "fullAccess"
    case .writeOnly: "writeOnly"
    case .limited: "limited"
    }
  }

  /// The status named `name` (as `description` writes it), or `nil`.
  public init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = match
  }
}

/// Why a decision was made, as recorded in each `accessDecided` record (the `reason` of Apple's
/// TCC modification events).
public enum DecisionReason: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The person answered the prompt.
  case userPrompt = 1
  /// The person changed it in settings.
  case userSettings = 2
  /// A policy restricted access, or lifted its restriction.
  case policy = 3
  /// A reset returned it to `notDetermined` (like `tccutil reset`).
  case reset = 4
  /// The app asked without a usage description for that level, so it was denied.
  case missingUsageDescription = 5
  /// The person answered the one prompt that upgrades write-only to full access.
  case upgrade = 6

  public var description: String {
    switch self {
    case .userPrompt: "userPrompt"
    case .userSettings: "userSettings"
    case .policy: "policy"
    case .reset: "reset"
    case .missingUsageDescription: "missingUsageDescription"
    case .upgrade: "upgrade"
    }
  }

  /// Whether the decision came from outside the app (settings, a policy, a reset): such a decision
  /// ends the app's open sessions.
  public var isExternal: Bool { self == .userSettings || self == .policy || self == .reset }
}
