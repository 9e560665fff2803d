/// What changed among a calendar's objects after a position of the log: one step of a calendar's
/// sync (RFC 6578's `sync-collection`), from `EventStore.calendarChanges(inCalendar:after:limit:)`.
package struct CalendarChanges: Sendable, Hashable {
  /// The position this answer is complete up to: the next step asks for the changes after it.
  public var position: LogPosition
  /// The objects added or changed, as they are now; for a first sync, every object.
  public var objects: [CalendarObject]
  /// The names (`CalendarObject.name`) of the objects gone from the calendar: removed, or moved to
  /// another calendar.
  public var removed: [String]
  /// Whether the limit cut the answer short: more changes follow ``position``.
  public var isTruncated: Bool

  /// Changes up to `position`.
  public init(position: LogPosition, objects: [CalendarObject], removed: [String], isTruncated: Bool = false) {
    self.position = position
    self.objects = objects
    self.removed = removed
    self.isTruncated = isTruncated
  }
}
