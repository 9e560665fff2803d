/// One `BYDAY` entry: a weekday, optionally with an ordinal (`2MO` is the second Monday, `-1FR` the last Friday).
///
/// Ordinals count within the month for `MONTHLY` rules and for `YEARLY` rules with `BYMONTH`,
/// and within the year for other `YEARLY` rules.
public struct RecurrenceWeekday: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The day of the week.
  public var weekday: Weekday
  /// The ordinal, ±1…53, or nil for every such weekday in the period.
  public var ordinal: Int?

  /// Every `weekday` in the period, or only its `ordinal`-th one (negative counts from the end).
  public init(_ weekday: Weekday, ordinal: Int? = nil) {
    self.weekday = weekday
    self.ordinal = ordinal
  }

  /// RFC 5545 text: `MO`, `2MO`, `-1FR`.
  public var description: String { (ordinal.map(String.init) ?? "") + weekday.description }

  /// Ordered by weekday, then plain before ordinals, then by ordinal.
  public static func < (lhs: RecurrenceWeekday, rhs: RecurrenceWeekday) -> Bool {
    if lhs.weekday != rhs.weekday { return lhs.weekday < rhs.weekday }
    return (lhs.ordinal ?? Int.min) < (rhs.ordinal ?? Int.min)
  }
}
