/// One interval of an app's reads of a service by one operation: a minute, as the log records it
/// (`dataRead`), the counts of its records added up.
public struct AccessUse: Hashable, Sendable {
  /// The app.
  public let client: String
  /// The service read.
  public let service: Service
  /// What it did (`query events`, `read contacts`, `list calendars`, …).
  public let operation: String
  /// The minute, as Unix time in minutes (UTC): the reads fell in `[minute·60 s, minute·60 s + 60 s)`.
  public let minute: Int64
  /// How many reads the interval holds.
  public var count: Int
  /// The calendars (for calendars and reminders) or chosen contacts (for limited access to
  /// contacts) the reads touched; never what they read of them.
  public var objects: [ObjectID]
  /// The app's status for the service at its last read of the interval.
  public var status: AuthorizationStatus
  /// The position of the decision in force then; `nil` when there was none (an app given access
  /// without asking, as one built for iOS 5).
  public var decision: LogPosition?
  /// How the store server identified the app's process, from the interval's last record that
  /// holds it; `nil` when it did not (the app declared itself, in a process of its own).
  public var identification: CallerEvidence?
  /// The records that hold the interval, in the order of the log.
  public var positions: [LogPosition]

  /// When the interval starts.
  public var start: Timestamp { Timestamp(rawValue: minute &* 60_000_000) }
  /// When the interval ends (exclusive).
  public var end: Timestamp { Timestamp(rawValue: (minute &+ 1) &* 60_000_000) }

  /// Whether the interval belongs to the window `since` (inclusive) … `until` (exclusive), open
  /// where `nil`: whether it starts in it, as every audit of uses windows them.
  package func starts(since: Timestamp?, until: Timestamp?) -> Bool {
    (since.map { start >= $0 } ?? true) && (until.map { start < $0 } ?? true)
  }
}
