/// An app's access to a kind of data, as EventKit's `EKAuthorizationStatus` (iOS 17).
public enum AuthorizationStatus: String, Sendable, Hashable, Codable, CaseIterable {
  /// The person was not asked yet.
  case notDetermined
  /// A policy restricts it; the person cannot grant it.
  case restricted
  /// The person denied it.
  case denied
  /// The app may read and write.
  case fullAccess
  /// The app may add events, and read nothing (calendars only).
  case writeOnly
  /// The app may use the contacts the person chose for it (contacts only).
  case limited
}

/// What an app asks access to: EventKit's `EKEntityType`.
public enum EntityType: Sendable, Hashable {
  /// Events in calendars.
  case event
  /// Reminders.
  case reminder

  /// The server's name for the service.
  var service: String {
    switch self {
    case .event: "calendars"
    case .reminder: "reminders"
    }
  }
}

/// Which occurrences of a recurring event a change or removal affects: EventKit's `EKSpan`.
public enum Span: String, Sendable, Hashable {
  /// This occurrence only (it is detached from its series).
  case thisEvent = "this"
  /// This occurrence and the ones after it (the series is split there).
  case futureEvents = "future"
}
