/// The UTC offsets a `VTIMEZONE` component defines (RFC 5545 §3.6.5) from its `STANDARD` and
/// `DAYLIGHT` observances: each starts at its `DTSTART` (a wall-clock time in `TZOFFSETFROM`), again
/// at every `RRULE` occurrence and `RDATE`, and sets `TZOFFSETTO`.
struct VTimeZoneDefinition: Sendable {
  /// The `TZID`.
  let tzid: String
  /// `X-LIC-LOCATION` (libical, Thunderbird), usually an IANA name.
  let location: String?
  /// Onsets as UTC instants with the offset from then on, ascending, between the years asked.
  let onsets: [(utc: Int64, offset: Int64)]
  /// The offset before the first onset.
  let initialOffset: Int64
  /// Every offset it uses.
  let offsets: Set<Int64>

  /// The definition of `component`, with onsets from the start of `years` (less two) to its end.
  init(_ component: ICalendarComponent, years: ClosedRange<Int>) throws(ICalendarError) {
    guard let tzid = component.property("TZID")?.value, !tzid.isEmpty else {
      throw ICalendarError(line: component.line, .missingProperty(component: "VTIMEZONE", property: "TZID"))
    }
    self.tzid = tzid
    location = component.property("X-LIC-LOCATION")?.value
    let from = LocalDateTime(year: max(1, years.lowerBound - 2), month: 1, day: 1)!.wallClockSeconds
    let to = LocalDateTime(year: min(9999, years.upperBound + 1), month: 1, day: 1)!.wallClockSeconds
    var onsets: [(utc: Int64, offset: Int64, from: Int64)] = []
    for observance in component.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
      let offsetFrom = try Self.offset("TZOFFSETFROM", of: observance)
      let offsetTo = try Self.offset("TZOFFSETTO", of: observance)
      guard let startLine = observance.property("DTSTART") else {
        throw ICalendarError(line: observance.line, .missingProperty(component: observance.name, property: "DTSTART"))
      }
      let start = try ICalendarTime.parse(startLine).local
      var locals: [LocalDateTime] = [start]
      for line in observance.properties("RDATE") {
        locals += try ICalendarTime.parseList(line).map(\.local)
      }
      for line in observance.properties("RRULE") {
        var rule: RecurrenceRule
        do {
          rule = try RecurrenceRule(parsing: line.value)
        } catch {
          throw ICalendarError(line: line.line, .invalidRecurrenceRule(error.description))
        }
        if case .utc(let until) = rule.until { rule.until = .floating(LocalDateTime(unchecked: until + offsetFrom)) }
        do {
          let set = try RecurrenceSet(start: start, rules: [rule])
          for occurrence in set.occurrences(from: max(from, start.wallClockSeconds), to: to) {
            locals.append(occurrence.local)
          }
        } catch {
          throw ICalendarError(line: line.line, .invalidRecurrenceRule(error.description))
        }
      }
      for local in locals { onsets.append((local.wallClockSeconds - offsetFrom, offsetTo, offsetFrom)) }
    }
    guard !onsets.isEmpty else {
      throw ICalendarError(
        line: component.line, .missingProperty(component: "VTIMEZONE", property: "STANDARD or DAYLIGHT"))
    }
    onsets.sort { $0.utc < $1.utc }
    self.onsets = onsets.map { ($0.utc, $0.offset) }
    initialOffset = onsets[0].from
    offsets = Set(onsets.map(\.offset) + [onsets[0].from])
  }

  /// The offset in effect at `utc`.
  func offset(atUTC utc: Int64) -> Int64 {
    var low = 0
    var high = onsets.count
    while low < high {
      let middle = (low + high) / 2
      if onsets[middle].utc <= utc { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? initialOffset : onsets[low - 1].offset
  }

  /// The instant a wall-clock time names here, by RFC 5545 §3.3.5 (a gap: the offset before it; an
  /// overlap: the first).
  func resolve(_ local: LocalDateTime) -> Int64 {
    let wall = local.wallClockSeconds
    let candidates = offsets.sorted(by: >).map { wall - $0 }.filter { offset(atUTC: $0) == wall - $0 }
    if let first = candidates.min() { return first }
    return wall - offset(atUTC: wall - (offsets.max() ?? 0))
  }

  /// Whether `zone` has the same offsets as this definition at every onset of either in `years`.
  func matches(_ zone: ZoneRules, years: ClosedRange<Int>) -> Bool {
    let from = LocalDateTime(year: max(1, years.lowerBound), month: 1, day: 1)!.wallClockSeconds
    let to = LocalDateTime(year: min(9999, years.upperBound + 1), month: 1, day: 1)!.wallClockSeconds
    var instants = [from, to - 1]
    for onset in onsets where onset.utc >= from && onset.utc < to { instants += [onset.utc - 1, onset.utc] }
    for transition in zone.transitions(fromUTC: from, toUTC: to) {
      instants += [transition.utc - 1, transition.utc]
    }
    return instants.allSatisfy { Int64(zone.offset(atUTC: $0)) == offset(atUTC: $0) }
  }

  private static func offset(_ name: String, of observance: ICalendarComponent) throws(ICalendarError) -> Int64 {
    guard let line = observance.property(name) else {
      throw ICalendarError(line: observance.line, .missingProperty(component: observance.name, property: name))
    }
    guard let value = ICalendarText.utcOffset(line.value.trimmingWhitespace().description) else {
      throw ICalendarError(
        line: line.line, .invalidValue(property: name, value: line.value, expected: "a UTC offset (+0100)"))
    }
    return value
  }
}
