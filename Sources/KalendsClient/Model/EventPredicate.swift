public import Foundation

/// Which events a range query returns: those overlapping `[start, end)` in the calendars named
/// (every calendar the app sees when `nil`), with times shown in `timeZone`. EventKit's
/// `predicateForEvents(withStart:end:calendars:)`.
public struct EventPredicate: Sendable, Hashable {
  public var start: Date
  public var end: Date
  public var calendars: [String]?
  public var timeZone: TimeZone

  public init(start: Date, end: Date, calendars: [String]? = nil, timeZone: TimeZone = .current) {
    self.start = start
    self.end = end
    self.calendars = calendars
    self.timeZone = timeZone
  }

  /// The query of `GET /v1/events` and `/v1/instances`.
  var query: String {
    Self.query([("from", start), ("to", end)], timeZone: timeZone, calendars: calendars)
  }

  /// A range query's text: `extra` (already texts), the `dates` as RFC 3339 instants, `tz` and
  /// each `calendar`, each value escaped. Shared with ``ReminderPredicate``.
  static func query(
    _ dates: [(String, Date?)], timeZone: TimeZone, calendars: [String]?, extra: [(String, String)] = []
  ) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    var items = extra
    for case (let name, let date?) in dates { items.append((name, formatter.string(from: date))) }
    items.append(("tz", timeZone.identifier))
    for calendar in calendars ?? [] { items.append(("calendar", calendar)) }
    return items.map { "\($0.0)=\(Self.escape($0.1))" }.joined(separator: "&")
  }

  /// Percent-encodes a query value.
  static func escape(_ text: String) -> String {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+?#")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
