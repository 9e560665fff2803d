extension EventStore {
  /// How soon an alarm must fire for a push of its item's change to be urgent (WebDAV-Push's
  /// `Urgency: high`): a client that syncs it later than that would miss it.
  public static let pushUrgencyWindow: Int64 = 15 * 60

  /// The calendars holding an event or reminder saved after `position` — through the log head
  /// returned — with an alarm that fires within ``pushUrgencyWindow`` from now: whose push notices
  /// go out as urgent. Reads the records themselves first (a save without an alarm costs a look at
  /// its fields), and only when one carries an alarm, the alarms due. The person's only (the store
  /// server's delivery). More than `limit` records after `position` are not looked through: none
  /// is urgent then (a burst that large is told of anyway).
  package func calendarsWithAlarmsSoon(
    changedAfter position: LogPosition, limit: Int = 1_000
  ) throws(StoreError) -> (head: LogPosition, calendars: Set<ObjectID>) {
    try requireOwner("deliver push notices")
    var saved: Set<ObjectID> = []
    let (head, whole) = try recordsAfter(position, limit: limit) { header, payload in
      guard header.content == .present, header.kind == .eventSaved || header.kind == .reminderSaved,
        try Self.carriesAlarm(header.kind, try PayloadReader(bytes: payload)),
        let change = try ChangeExtractor.change(header, payload)
      else { return true }
      switch change.object {
      case .event(let id), .reminder(let id): saved.insert(id)
      default: break
      }
      return true
    }
    guard whole, !saved.isEmpty else { return (head, []) }
    let now = store.now().rawValue / 1_000_000
    let soon = try alarms(firingAfter: now - 1, through: now + Self.pushUrgencyWindow)
    var calendars: Set<ObjectID> = []
    for alarm in soon {
      switch alarm.item {
      case .event(let id, _), .reminder(let id): if saved.contains(id) { calendars.insert(alarm.calendarID) }
      }
    }
    return (head, calendars)
  }
}
