import Foundation
package import Kalends

/// A date or time given to an option (`--start`, `--due`, `--occurrence`, …) or an API field, and
/// the RFC 3339 text of stored times.
///
/// Accepted: `2026-03-29` (a date), `2026-03-29T09:30:00` (a wall-clock time, in `--tz` or the
/// item's zone, else floating), `2026-03-29T09:30:00Z` or `…+02:00` (an instant); and where a
/// person types it (`spoken`), the forms of ``SpokenTime``, read against the present in
/// ``LocalZone/current``.
package struct DateArgument {
  /// The forms accepted, for error messages.
  package static let forms =
    "2026-03-29 (a date), 2026-03-29T09:30:00 (a wall-clock time) or 2026-03-29T09:30:00Z / "
    + "2026-03-29T09:30:00+02:00 (an instant)"

  /// The option it was given to, such as `--start`.
  package let option: String
  /// The parsed value.
  package let value: RFC3339Time

  /// Parses `text` given to `option`; with `spoken`, also as a person says it (`tomorrow 10:00`),
  /// against the present in `zone` (by default ``LocalZone/current``): a command's `--tz` is
  /// where its "today" is.
  package init(_ text: String, option: String, spoken: Bool = true, zone: ZoneRules? = nil) throws(RequestError) {
    let now = Int64(Date().timeIntervalSince1970)
    guard
      let value = RFC3339Time(text)
        ?? (spoken ? SpokenTime.parse(text, now: now, zone: zone ?? LocalZone.current) : nil)
    else {
      let forms = spoken ? Self.forms + ", or as spoken: " + SpokenTime.forms : Self.forms
      throw .invalidInput("\(option): \"\(text)\" is not a date or time — write \(forms)")
    }
    self.option = option
    self.value = value
  }

  /// The wall-clock time in `zone` (instants are converted; to UTC when `zone` is `nil`).
  package func wallClock(in zone: ZoneRules?) throws(RequestError) -> LocalDateTime {
    guard let local = value.wallClock(in: zone) else {
      throw .invalidInput("\(option): the time falls outside the years 1…9999 in \(zone?.identifier ?? "UTC")")
    }
    return local
  }

  /// The wall-clock time and the zone it is kept in: a date has none; a wall-clock time is in
  /// `zone` (floating without one); an instant is converted to `zone`, else kept in UTC.
  package func placed(in zone: ZoneRules?) throws(RequestError) -> (local: LocalDateTime, zone: ZoneRules?) {
    switch value {
    case .date: (try wallClock(in: nil), nil)
    case .wallClock: (try wallClock(in: zone), zone)
    case .instant: (try wallClock(in: zone ?? .utc), zone ?? .utc)
    }
  }

  /// The instant this names: dates and wall-clock times are read in `zone`.
  package func instant(in zone: ZoneRules) throws(RequestError) -> Int64 {
    if case .instant(let utc) = value { return utc }
    return zone.resolve(try wallClock(in: zone))
  }

  /// The instant `days` days after this one on the wall clock of `zone`: a week is seven days of
  /// the calendar, also across a change of offset.
  package func instant(in zone: ZoneRules, plusDays days: Int64) throws(RequestError) -> Int64 {
    guard let later = LocalDateTime(wallClockSeconds: try wallClock(in: zone).wallClockSeconds + days * 86_400) else {
      throw .invalidInput("\(option): the window would end after the year 9999")
    }
    return zone.resolve(later)
  }

  /// The window `--from` and `--to` give, as typed and read in `zone` (UTC seconds): without
  /// `--to` it ends `days` days after `--from` on the wall clock; refused unless it starts before it
  /// ends.
  package static func window(
    from: String, to: String?, defaultDays days: Int64, zone: ZoneRules
  ) throws(RequestError) -> (start: Int64, end: Int64) {
    let from = try DateArgument(from, option: "--from", zone: zone)
    let start = try from.instant(in: zone)
    let end: Int64
    if let to {
      end = try DateArgument(to, option: "--to", zone: zone).instant(in: zone)
    } else {
      end = try from.instant(in: zone, plusDays: days)
    }
    guard start < end else { throw .invalidInput("--to must be after --from") }
    return (start, end)
  }

  /// The zone named by `--tz`, or `nil` when it was not given.
  package static func zone(_ name: String?, option: String = "--tz") throws(RequestError) -> ZoneRules? {
    guard let name else { return nil }
    do {
      return try ZoneRules.named(name)
    } catch {
      throw .invalidInput("\(option): \(error)")
    }
  }

  /// The text of a stored time: a date, or a time with the offset of `zone` (floating without one).
  package static func text(_ local: LocalDateTime, isDate: Bool, zone: String?) -> String {
    if isDate { return RFC3339Time.dateText(for: local) }
    return RFC3339Time.text(for: local, in: zone.flatMap { try? ZoneRules.named($0) })
  }
}
