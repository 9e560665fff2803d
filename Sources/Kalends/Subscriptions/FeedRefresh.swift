/// What applying a feed to a subscribed calendar did
/// (``EventStore/applyFeed(_:to:entityTag:lastModified:)``).
public struct FeedRefresh: Sendable, Hashable {
  /// The subscribed calendar.
  public var calendarID: ObjectID
  /// Events new in the feed.
  public var created = 0
  /// Events the feed changed.
  public var updated = 0
  /// Events as the calendar held them.
  public var unchanged = 0
  /// Events no longer in the feed, removed.
  public var removed = 0
  /// Components of the feed a subscribed calendar does not hold (to-dos, journals), by name.
  public var skipped: [String: Int] = [:]
  /// The position of the last record written; `nil` when the feed changed nothing (the same bytes
  /// as the refresh that last changed the calendar).
  public var lastPosition: LogPosition?

  /// Whether the refresh wrote anything.
  public var changedCalendar: Bool { lastPosition != nil }
}
