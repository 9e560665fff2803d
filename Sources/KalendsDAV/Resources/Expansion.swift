import Kalends

/// What a REPORT's `CALDAV:expand` asks for (RFC 4791 §9.6.5): the instances overlapping a window,
/// floating times and dates placed in the request's or the calendar's time zone.
struct Expansion {
  /// The window, UTC seconds.
  let window: Range<Int64>
  /// Where floating times and dates fall (``DAVMiddleware/floatingZone(asked:of:)``).
  let floating: ZoneRules
}
