extension ICalendar {
  /// A `VCALENDAR` holding one `VFREEBUSY` (RFC 5545 §3.6.4) of `periods` in the window `[from,
  /// to)` (UTC seconds): `DTSTART` and `DTEND` the window, one `FREEBUSY` per period with its
  /// `FBTYPE`, every time in UTC, lines folded. What CalDAV's `free-busy-query` answers
  /// (RFC 4791 §7.10) and `kalends freebusy --format ics` writes.
  public static func freeBusy(
    _ periods: [BusyPeriod], from: Int64, to: Int64, productID: String = "-//Kalends//Kalends//EN",
    stamp: Timestamp = .now()
  ) -> String {
    func utc(_ seconds: Int64) -> String {
      (LocalDateTime(wallClockSeconds: seconds)?.iCalendarText ?? "19700101T000000") + "Z"
    }
    var writer = ICalendarWriter()
    writer.begin("VCALENDAR")
    writer.line("VERSION", "2.0")
    writer.line("PRODID", productID)
    writer.begin("VFREEBUSY")
    writer.timestamp("DTSTAMP", stamp)
    writer.line("DTSTART", utc(from))
    writer.line("DTEND", utc(to))
    for period in periods {
      writer.line("FREEBUSY", [("FBTYPE", period.kind.rawValue)], "\(utc(period.start))/\(utc(period.end))")
    }
    writer.end("VFREEBUSY")
    writer.end("VCALENDAR")
    return writer.text
  }
}
