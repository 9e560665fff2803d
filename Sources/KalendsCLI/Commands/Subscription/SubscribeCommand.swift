import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand {
  /// `kalends subscribe`: a read-only calendar mirroring a feed.
  struct Subscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "subscribe",
      abstract: "Subscribe to a calendar feed (https://, http:// or webcal://): a read-only calendar kept current.",
      discussion: """
        The feed is fetched first: an address that does not answer with iCalendar creates nothing. \
        `kalends serve` refreshes every subscription at the interval its feed asks for (between 15 \
        minutes and a week; a day when it does not say); `kalends subscription refresh` refreshes now.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The feed's address.") var url: String

    @Option(help: "The calendar's title (default: the feed's name, else its host).") var title: String?

    @Option(help: ArgumentHelp("The colour as #RRGGBB.", valueName: "color")) var color: String?

    @Option(help: "Seconds to wait for the feed.") var timeout = 30

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() async throws {
      let store = try global.openEventStore()
      try store.requireOwner("subscribe to calendars")
      let color = try color.map { try CalendarColor.parse($0, option: "--color") }
      let (address, _) = try CalendarSubscription.address(of: url)
      // Before fetching: a feed already subscribed to is refused without a request.
      if let same = try store.subscriptions().first(where: { $0.subscription?.url == address }) {
        throw StoreError.calendar(.alreadySubscribed(same.id))
      }
      let fetched: FeedFetch
      do {
        fetched = try await FeedFetch.fetch(
          address, limit: CalendarSubscription.maximumFeedBytes, timeout: timeout)
      } catch {
        throw CLIError(message: "\(url): \(error) — nothing was subscribed", status: .notFound)
      }
      guard case .fetched(let bytes, let entityTag, let lastModified) = fetched else {
        throw CLIError(message: "\(url) answered \(fetched) — nothing was subscribed", status: .notFound)
      }
      let name = title ?? (try? ICalendar(parsing: bytes))?.name
      // The calendar and its first feed in one transaction: a feed refused writes nothing.
      let made: (calendar: EventCalendar, refresh: FeedRefresh)
      do {
        made = try store.subscribe(
          to: url, title: name, color: color, feed: bytes, entityTag: entityTag, lastModified: lastModified)
      } catch {
        guard case .calendar(.feedRefused(_, let reason)) = error else { throw error }
        throw CLIError(
          message: "\(url): the feed was refused: \(reason) — nothing was subscribed", status: .invalidInput)
      }
      let (calendar, refresh) = made
      let saved = try store.calendar(withID: calendar.id) ?? calendar
      format.write(saved.jsonFields + [("feed", .object(Self.feedFields(saved, refresh)))])
    }

    /// The feed's fields beside the calendar's: its address, interval and the first refresh's counts.
    static func feedFields(_ calendar: EventCalendar, _ refresh: FeedRefresh?) -> [(String, JSONValue)] {
      var fields: [(String, JSONValue)] = []
      if let subscription = calendar.subscription {
        fields.append(("url", .string(subscription.url)))
        fields.append(("refreshInterval", .number(Double(subscription.effectiveRefreshInterval))))
      }
      if let refresh {
        fields += [
          ("created", .number(Double(refresh.created))), ("updated", .number(Double(refresh.updated))),
          ("removed", .number(Double(refresh.removed))), ("unchanged", .number(Double(refresh.unchanged))),
        ]
      }
      return fields
    }
  }
}
