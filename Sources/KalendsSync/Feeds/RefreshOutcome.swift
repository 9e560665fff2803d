public import Kalends

/// What one refresh of a subscribed calendar came to.
public enum RefreshOutcome: Sendable {
  /// The feed was applied (`FeedRefresh.changedCalendar` says whether it changed anything).
  case applied(FeedRefresh)
  /// The feed answered that it had not changed (304).
  case notModified
  /// The feed was fetched and not applied; the calendar is as it was (the reason says why).
  case refused(String)
  /// The feed could not be fetched; the calendar is as it was.
  case unreachable(String)

  /// One line for the person.
  public var summary: String {
    switch self {
    case .applied(let refresh) where !refresh.changedCalendar: "unchanged"
    case .applied(let refresh):
      "\(refresh.created) new, \(refresh.updated) changed, \(refresh.removed) removed, \(refresh.unchanged) unchanged"
    case .notModified: "not modified"
    case .refused(let reason): "refused: \(reason)"
    case .unreachable(let reason): "not fetched: \(reason)"
    }
  }

  /// Whether the calendar now mirrors the feed as it is.
  public var isCurrent: Bool {
    switch self {
    case .applied, .notModified: true
    case .refused, .unreachable: false
    }
  }
}
