/// Which occurrences of a recurring event a save or a removal affects (EventKit's `EKSpan`).
public enum Span: Sendable, Hashable {
  /// Only this occurrence: saving detaches it, removing adds an exception date.
  case thisEvent
  /// This occurrence and every later one: the series is split here (removing: it ends here). On the
  /// first occurrence, the whole series.
  case futureEvents
}
