extension ICalendar {
  /// The IANA zone the text of a `VCALENDAR` holding a `VTIMEZONE` describes — CalDAV's
  /// `calendar-timezone` (RFC 4791 §5.2.2), in which a calendar's floating times are placed when a
  /// time range is judged: the zone its `TZID` names, or else the zone whose offsets equal the
  /// definition's, as an import resolves a `VTIMEZONE` (``ICalendar/init(parsing:)-(String)``). `nil` when
  /// the text is not such a calendar, or no IANA zone matches the definition.
  public static func zone(describedBy text: String) -> ZoneRules? {
    guard let lines = try? ContentLineReader.lines(of: Array(text.utf8)),
      let roots = try? ICalendarComponent.parse(lines),
      let calendar = roots.first(where: { $0.name == "VCALENDAR" }),
      let definition = calendar.components.first(where: { $0.name == "VTIMEZONE" }),
      let tzid = definition.property("TZID")?.value, !tzid.isEmpty
    else { return nil }
    // The definition is compared over the years around now, where the queries that need it fall.
    let year = LocalDateTime(wallClockSeconds: Timestamp.now().rawValue / 1_000_000)?.year ?? 2026
    var resolver = ICalendarZoneResolver(timeZones: [definition], years: [tzid: (year - 1)...(year + 1)])
    guard case .iana(let rules)? = try? resolver.zone(tzid, line: definition.line) else { return nil }
    return rules
  }
}
