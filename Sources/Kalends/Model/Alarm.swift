/// A reminder before or after an event's start (EventKit's `EKAlarm` with a relative offset).
public struct Alarm: Hashable, Sendable {
  /// Seconds relative to the start: negative is before.
  public var relativeOffset: Int64

  /// An alarm `relativeOffset` seconds from the start.
  public init(relativeOffset: Int64) { self.relativeOffset = relativeOffset }
}
