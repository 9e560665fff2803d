public import Kalends

/// Refreshes the person's subscribed calendars from their feeds: a conditional fetch, then
/// `EventStore.applyFeed(_:to:entityTag:lastModified:)` in one transaction. A feed that cannot be
/// fetched, is gone or is refused leaves its calendar as it was, and says why.
public struct SubscriptionRefresher: Sendable {
  /// The person's store.
  let store: EventStore
  /// Seconds for each fetch.
  let timeout: Int

  /// A refresher of the subscriptions of `store`, which must be the person's session.
  public init(store: EventStore, timeout: Int = 30) {
    self.store = store
    self.timeout = timeout
  }

  /// Refreshes the subscribed calendar `calendar` (as `EventStore.subscriptions()` lists it).
  public func refresh(_ calendar: EventCalendar) async -> RefreshOutcome {
    guard let subscription = calendar.subscription else { return .refused("not a subscription") }
    let fetched: FeedFetch
    do {
      fetched = try await FeedFetch.fetch(
        subscription.url, entityTag: subscription.entityTag, lastModified: subscription.lastModified,
        limit: CalendarSubscription.maximumFeedBytes, timeout: timeout)
    } catch .tooLarge(let limit) {
      return .refused("the feed is larger than \(limit) bytes")
    } catch {
      return .unreachable(error.description)
    }
    switch fetched {
    case .notModified: return .notModified
    case .gone(let status):
      return .unreachable("the feed answered \(status): it is gone; the calendar keeps its events")
    case .failed(let status): return .unreachable("the feed answered \(status)")
    case .fetched(let bytes, let entityTag, let lastModified):
      do {
        return .applied(try store.applyFeed(bytes, to: calendar.id, entityTag: entityTag, lastModified: lastModified))
      } catch .calendar(.feedRefused(_, let reason)) {
        return .refused(reason)
      } catch {
        return .refused(error.description)
      }
    }
  }
}
