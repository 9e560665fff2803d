/// What changed in the store over a range of log positions, as a subscriber of
/// ``Store/changes(from:options:)`` or ``EventStore/changes(from:options:)`` hears it.
///
/// Notices tile the log: each one starts right after the previous one ended, so a subscriber that
/// saves ``positions``' upper bound and resubscribes from the next position misses nothing and
/// hears nothing twice. Positions with nothing the subscriber may see are folded into the next
/// notice rather than announced on their own.
public struct ChangeNotice: Hashable, Sendable {
  /// Where the changes came from.
  public enum Origin: String, Hashable, Sendable, CustomStringConvertible {
    /// Every record was committed by this process.
    case thisProcess
    /// Every record was committed by another process (or by this one too long ago to tell).
    case otherProcess
    /// Some of each.
    case mixed

    public var description: String { rawValue }
  }

  /// The log positions it covers.
  public let positions: ClosedRange<LogPosition>
  /// The objects that changed and how, by object (empty when ``refetchAll`` is set).
  public let changes: [ChangedObject: ChangeKind]
  /// Too much changed to list (the subscriber fell behind past its bound): refetch everything.
  public let refetchAll: Bool
  /// Where the changes came from.
  public let origin: Origin
  /// Whether it replays history from before the subscription started (catching up), rather than a
  /// live change.
  public let isCatchUp: Bool
  /// The log head as its subscriber knew it when it was built (read from the log, or the last
  /// commit the process's watcher announced); `head - positions.upperBound` is how far behind it is.
  public let head: LogPosition
  /// When the last record it covers was appended.
  public let lastTimestamp: Timestamp

  /// How many records it covers.
  public var recordCount: Int { Int(positions.upperBound.rawValue - positions.lowerBound.rawValue + 1) }

  /// The changes in a stable order: calendars, events, reminders, clients, each by identifier.
  public var sortedChanges: [(object: ChangedObject, kind: ChangeKind)] {
    changes.sorted { $0.key < $1.key }.map { (object: $0.key, kind: $0.value) }
  }
}
