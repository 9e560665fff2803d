import Kalends
import KalendsServer
import KalendsSync
import Synchronization

/// The refresh of subscribed calendars while `kalends serve` runs: every minute it refreshes each
/// subscription whose interval (`CalendarSubscription.effectiveRefreshInterval`) has passed since
/// its last refresh in this run, every subscription at start. Each outcome other than "not
/// modified" or "unchanged" is a line of the log.
enum SubscriptionCompanion {
  static func make(checkEvery: Duration = .seconds(60)) -> Companion {
    let refreshed = Mutex<[ObjectID: Timestamp]>([:])
    return Companion(interval: checkEvery, failure: "subscriptions could not be refreshed") { store in
      let person = EventStore(store: store)
      let now = store.now()
      let due = try person.subscriptions().filter { calendar in
        guard let last = refreshed.withLock({ $0[calendar.id] }) else { return true }
        let interval = calendar.subscription?.effectiveRefreshInterval ?? CalendarSubscription.defaultRefreshInterval
        return now.rawValue - last.rawValue >= interval * 1_000_000
      }
      var lines: [String] = []
      let refresher = SubscriptionRefresher(store: person)
      for calendar in due {
        let outcome = await refresher.refresh(calendar)
        refreshed.withLock { $0[calendar.id] = now }
        if case .notModified = outcome { continue }
        if case .applied(let refresh) = outcome, !refresh.changedCalendar { continue }
        lines.append("subscription \(calendar.id) (\(calendar.title)): \(outcome.summary)")
      }
      return lines
    }
  }
}
