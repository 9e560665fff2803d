/// Which events a range query returns (EventKit's `predicateForEvents(withStart:end:calendars:)`):
/// those overlapping `[start, end)` in the given calendars, by RFC 4791 §9.9 — an event overlaps
/// when it starts before `end` and ends after `start`; one of zero duration when
/// `start <= its start < end`.
///
/// Unlike EventKit the window is not clamped to four years; a query past the index horizon
/// expands the open-ended series lazily and still terminates.
public struct EventPredicate: Sendable, Hashable {
  /// The window start, UTC seconds since 1970 (inclusive).
  public var start: Int64
  /// The window end, UTC seconds since 1970 (exclusive).
  public var end: Int64
  /// The calendars to search; empty: every calendar that holds events.
  public var calendars: [ObjectID]
  /// Where floating and all-day events are placed (the viewer's zone).
  public var viewerZone: ZoneRules

  /// A predicate for `[start, end)` in `calendars` (all when empty), floating and all-day events
  /// placed in `viewerZone`.
  public init(start: Int64, end: Int64, calendars: [ObjectID] = [], viewerZone: ZoneRules = .utc) {
    self.start = start
    self.end = end
    self.calendars = calendars
    self.viewerZone = viewerZone
  }
}
