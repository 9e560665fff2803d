internal import Synchronization

/// Writes a `VTIMEZONE` for an IANA zone from its rules: the offset at the start of the years asked,
/// then every transition in them, grouped into one `STANDARD` or `DAYLIGHT` observance per pair of
/// offsets (its first onset as `DTSTART`, the others as `RDATE`s). `X-LIC-LOCATION` names the zone.
enum VTimeZoneWriter {
  /// Writes the `VTIMEZONE` of `zone` for `years`: the text once made for that zone and those
  /// years (a report writes the same few zones for hundreds of objects), or made now and kept.
  /// Zone rules are themselves kept for the life of the process (``ZoneRules/named(_:)``), so the
  /// text kept is the text the rules would give.
  static func write(_ zone: ZoneRules, years: ClosedRange<Int>, to writer: inout ICalendarWriter) {
    let key = Key(zone: zone.identifier, years: years)
    if let written = cache.withLock({ $0[key] }) { return writer.append(written: written) }
    var own = ICalendarWriter()
    make(zone, years: years, to: &own)
    cache.withLock { cached in
      if cached.count >= maximumCached { cached.removeAll() }
      cached[key] = own.bytes
    }
    writer.append(written: own.bytes)
  }

  private struct Key: Hashable {
    var zone: String
    var years: ClosedRange<Int>
  }

  /// Texts kept at most: a bound on memory whatever years clients ask about.
  private static let maximumCached = 1024
  private static let cache = Mutex<[Key: [UInt8]]>([:])

  private static func make(_ zone: ZoneRules, years: ClosedRange<Int>, to writer: inout ICalendarWriter) {
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
