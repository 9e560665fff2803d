/// Writes a `VTIMEZONE` for an IANA zone from its rules: the offset at the start of the years asked,
/// then every transition in them, grouped into one `STANDARD` or `DAYLIGHT` observance per pair of
/// offsets (its first onset as `DTSTART`, the others as `RDATE`s). `X-LIC-LOCATION` names the zone.
enum VTimeZoneWriter {
  static func write(_ zone: ZoneRules, years: ClosedRange<Int>, to writer: inout ICalendarWriter) {
    let first = max(1, years.lowerBound - 1)
    let last = min(9998, years.upperBound + 1)
    let from = LocalDateTime(year: first, month: 1, day: 1)!.wallClockSeconds
    let to = LocalDateTime(year: last + 1, month: 1, day: 1)!.wallClockSeconds
    let initial = Int64(zone.offset(atUTC: from - Int64(zone.offset(atUTC: from))))
    writer.begin("VTIMEZONE")
    writer.line("TZID", zone.identifier)
    writer.line("X-LIC-LOCATION", zone.identifier)
    var groups: [(before: Int64, after: Int64, onsets: [LocalDateTime])] = []
    for transition in zone.transitions(fromUTC: from, toUTC: to) {
      let onset = LocalDateTime(unchecked: transition.utc + transition.before)
      if let index = groups.firstIndex(where: { $0.before == transition.before && $0.after == transition.after }) {
        groups[index].onsets.append(onset)
      } else {
        groups.append((transition.before, transition.after, [onset]))
      }
    }
    observance("STANDARD", from: initial, to: initial, onsets: [LocalDateTime(unchecked: from)], &writer)
    for group in groups {
      observance(
        group.after > group.before ? "DAYLIGHT" : "STANDARD", from: group.before, to: group.after,
        onsets: group.onsets, &writer)
    }
    writer.end("VTIMEZONE")
  }

  private static func observance(
    _ kind: String, from: Int64, to: Int64, onsets: [LocalDateTime], _ writer: inout ICalendarWriter
  ) {
    writer.begin(kind)
    writer.line("DTSTART", onsets[0].iCalendarText)
    if onsets.count > 1 { writer.line("RDATE", onsets.dropFirst().map(\.iCalendarText).joined(separator: ",")) }
    writer.line("TZOFFSETFROM", ICalendarText.offsetText(from))
    writer.line("TZOFFSETTO", ICalendarText.offsetText(to))
    writer.end(kind)
  }
}
