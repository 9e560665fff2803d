package import Kalends

/// An event's status by name (`--status`, the API's `status`).
package enum EventStatusName: String, CaseIterable, Sendable {
  case none, confirmed, tentative, canceled

  package var value: Event.Status {
    switch self {
    case .none: .none
    case .confirmed: .confirmed
    case .tentative: .tentative
    case .canceled: .canceled
    }
  }
}
