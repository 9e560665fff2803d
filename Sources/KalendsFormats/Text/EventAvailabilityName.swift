package import Kalends

/// An event's availability by name (`--availability`, the API's `availability`).
package enum EventAvailabilityName: String, CaseIterable, Sendable {
  case busy, free, tentative, unavailable

  package var value: Event.Availability {
    switch self {
    case .busy: .busy
    case .free: .free
    case .tentative: .tentative
    case .unavailable: .unavailable
    }
  }
}
