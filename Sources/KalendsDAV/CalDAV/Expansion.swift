import Kalends

/// What a REPORT's `calendar-data` asks of a recurrence (RFC 4791 §9.6.5, §9.6.6): its instances in
/// a window (`expand`), or the series with only the changed occurrences that overlap the window
/// (`limit-recurrence-set`); floating times and dates placed in the request's or the calendar's zone.
struct Expansion {
  enum Kind {
    case expand
    case limitRecurrenceSet
  }

  let kind: Kind
  /// The window, UTC seconds.
  let window: Range<Int64>
  /// Where floating times and dates fall (``DAVMiddleware/floatingZone(asked:of:)``).
  let floating: ZoneRules
}
