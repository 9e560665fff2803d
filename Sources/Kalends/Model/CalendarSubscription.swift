/// The feed a subscribed calendar mirrors (a calendar of source kind
/// ``CalendarSource/Kind/subscribed``): where it is and what the last refresh that changed the
/// calendar saw of it.
///
/// Only the person's session sees it: an app's copy of the calendar carries `nil`, because the
/// address of a private feed is its password.
public struct CalendarSubscription: Hashable, Sendable {
  /// The feed's address, `https://` or `http://` (a `webcal://` address is kept as `https://`),
  /// never with a user name or password in it; or `file:///PATH`, a file kept current by other
  /// means.
  public var url: String
  /// The feed's `ETag` when it last changed the calendar, for a conditional refresh.
  public internal(set) var entityTag: String?
  /// The feed's `Last-Modified` when it last changed the calendar, for a conditional refresh.
  public internal(set) var lastModified: String?
  /// SHA-256 of the feed's bytes when it last changed the calendar: a feed served again unchanged
  /// (without validators) writes nothing.
  public internal(set) var digest: [UInt8]?
  /// How often the feed asks to be refreshed, in seconds (RFC 7986 `REFRESH-INTERVAL`, or
  /// `X-PUBLISHED-TTL`), as it last said; `nil` when it does not say.
  public internal(set) var refreshInterval: Int64?

  /// A subscription to `url`, not yet refreshed.
  public init(url: String) {
    self.url = url
  }

  /// The least time between two refreshes, whatever a feed asks: 15 minutes.
  public static let minimumRefreshInterval: Int64 = 15 * 60
  /// The most time between two refreshes, whatever a feed asks: one week.
  public static let maximumRefreshInterval: Int64 = 7 * 86_400
  /// The time between two refreshes when a feed does not say: one day.
  public static let defaultRefreshInterval: Int64 = 86_400
  /// The most bytes a feed may have: 16 MiB. A larger one leaves the calendar as it was.
  public static let maximumFeedBytes = 16 << 20

  /// The time between refreshes: the feed's own interval within the bounds, else the default.
  public var effectiveRefreshInterval: Int64 {
    min(max(refreshInterval ?? Self.defaultRefreshInterval, Self.minimumRefreshInterval), Self.maximumRefreshInterval)
  }

  /// The address to fetch for `url` (`webcal:` as `https:`) and its host, or
  /// ``CalendarError/invalidFeedURL(_:)`` saying why it cannot be subscribed to.
  public static func address(of url: String) throws(StoreError) -> (address: String, host: String) {
    guard url.utf8.count <= 2048 else { throw .calendar(.invalidFeedURL("the address is longer than 2048 bytes")) }
    guard let colon = url.firstIndex(of: ":") else { throw .calendar(.invalidFeedURL("\(url) is not an address")) }
    let scheme = url[..<colon].lowercased()
    let rest = url[url.index(after: colon)...]
    // A file the person keeps current by other means (a feed another program writes).
    if scheme == "file" {
      guard rest.hasPrefix("///"), rest.count > 3,
        url.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
      else { throw .calendar(.invalidFeedURL("a file's address is file:///ABSOLUTE/PATH")) }
      return ("file:" + rest, "localhost")
    }
    guard ["https", "http", "webcal", "webcals"].contains(scheme), rest.hasPrefix("//") else {
      throw .calendar(.invalidFeedURL("\(scheme): is not a feed's scheme"))
    }
    let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.contains("@") else {
      throw .calendar(.invalidFeedURL("the address holds a user name or password, which would be kept in the log"))
    }
    let host = authority.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }),
      url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
    else { throw .calendar(.invalidFeedURL("the address has no host, or spaces or control characters")) }
    let fetched = scheme.hasPrefix("webcal") ? "https" : scheme
    return (fetched + ":" + rest, host.lowercased())
  }

}
