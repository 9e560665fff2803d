import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand {
  /// `kalends subscription`: the person's subscribed calendars.
  struct Subscription: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "subscription",
      abstract: "List, refresh and remove subscribed calendars (made by `kalends subscribe URL`).",
      subcommands: [List.self, Refresh.self, Remove.self])
  }
}

extension KalendsCommand.Subscription {
  /// `kalends subscription list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List subscribed calendars with their feeds.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      format.write(
        try store.subscriptions(),
        json: { $0.jsonFields + [("feed", .object(KalendsCommand.Subscribe.feedFields($0, nil)))] },
        columns: [
          ("ID", \.id.description),
          ("EVERY", { Self.interval($0.subscription?.effectiveRefreshInterval ?? 0) }),
          ("TITLE", \.title),
          ("URL", { $0.subscription?.url ?? "" }),
        ])
    }

    /// An interval in the largest whole unit: `15m`, `6h`, `1d`, `7d`.
    static func interval(_ seconds: Int64) -> String {
      if seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
      if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
      return "\(seconds / 60)m"
    }
  }

  /// `kalends subscription refresh`.
  struct Refresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "refresh",
      abstract: "Fetch feeds now and apply what changed (every subscription, or those named).",
      discussion: """
        Each feed is fetched conditionally (ETag, Last-Modified). A feed that is gone, is not \
        iCalendar, is empty or too large leaves its calendar as it was, and the line says why; the \
        exit status is then 65.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Subscribed calendars, by title or id (default: every one).") var calendars: [String] = []

    @Option(help: "Seconds to wait for each feed.") var timeout = 30

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() async throws {
      let store = try global.openEventStore()
      try store.requireOwner("refresh subscriptions")
      let all = try store.subscriptions()
      let chosen = try calendars.map { text in
        let id = try store.calendarNamed(text, option: "CALENDAR")
        guard let found = all.first(where: { $0.id == id }) else {
          throw StoreError.calendar(.notSubscribed(id))
        }
        return found
      }
      let refresher = SubscriptionRefresher(store: store, timeout: timeout)
      var rows: [(EventCalendar, RefreshOutcome)] = []
      for calendar in chosen.isEmpty ? all : chosen {
        rows.append((calendar, await refresher.refresh(calendar)))
      }
      format.write(
        rows,
        json: { row in
          [
            ("id", .string(row.0.id.description)), ("title", .string(row.0.title)),
            ("current", .bool(row.1.isCurrent)), ("outcome", .string(row.1.summary)),
          ]
        },
        columns: [("ID", { $0.0.id.description }), ("TITLE", { $0.0.title }), ("OUTCOME", { $0.1.summary })])
      let failed = rows.filter { !$0.1.isCurrent }.count
      if failed > 0 {
        throw CLIError(message: "\(failed) of \(rows.count) feeds were not applied", status: .invalidInput)
      }
    }
  }

  /// `kalends subscription remove`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Unsubscribe: remove a subscribed calendar and its events.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The subscribed calendar, by title or id.") var calendar: String

    func run() throws {
      let store = try global.openEventStore()
      try store.requireOwner("remove subscriptions")
      let id = try store.calendarNamed(calendar, option: "CALENDAR")
      guard let found = try store.subscriptions().first(where: { $0.id == id }) else {
        throw StoreError.calendar(.notSubscribed(id))
      }
      try store.remove(found)
    }
  }
}
