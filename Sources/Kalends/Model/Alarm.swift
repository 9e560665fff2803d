/// A reminder before or after an event's start (EventKit's `EKAlarm` with a relative offset).
public struct Alarm: Hashable, Sendable {
  /// Seconds relative to the start: negative is before.
  public var relativeOffset: Int64
  /// What the iCalendar `VALARM` it came from held that Kalends does not model — every content line
  /// but its `TRIGGER` (which ``relativeOffset`` is), such as a program's `ACTION:AUDIO` with its
  /// `ATTACH`, its own `DESCRIPTION`, the alarm's `UID`, RFC 9074's `ACKNOWLEDGED` or an `X-`
  /// property — unfolded, kept as written and written again after the `TRIGGER`, so a client's
  /// alarm comes back as it stored it. Empty for an alarm made here, which is written as a display
  /// alarm describing its item. At most ``maximumProperties``.
  public var additionalProperties: [String]

  /// The most ``additionalProperties`` an alarm keeps.
  public static let maximumProperties = 64

  /// An alarm `relativeOffset` seconds from the start.
  public init(relativeOffset: Int64) { self.init(relativeOffset: relativeOffset, additionalProperties: []) }

  /// An alarm `relativeOffset` seconds from the start that keeps `additionalProperties`.
  public init(relativeOffset: Int64, additionalProperties: [String]) {
    self.relativeOffset = relativeOffset
    self.additionalProperties = additionalProperties
  }
}

extension Alarm {
  /// What a display alarm made here says of an item titled `title`.
  static func description(of title: String) -> String { title.isEmpty ? "Reminder" : title }
}
