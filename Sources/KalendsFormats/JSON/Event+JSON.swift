package import Kalends

extension Event {
  /// The event as documented in docs/cli.md's JSON shapes: times as RFC 3339 with the offset of
  /// `timeZone` (floating times without one, all-day ones as dates).
  package var jsonFields: [(String, JSONValue)] {
    func time(_ local: LocalDateTime?) -> JSONValue { .text(local.map(text(of:))) }
    return [
      ("id", .string(id.description)),
      ("externalId", .string(externalID)),
      ("calendarId", .text(calendarID?.description)),
      ("title", .string(title)),
      ("start", time(start)),
      ("end", time(end)),
      ("allDay", .bool(isAllDay)),
      ("timeZone", .text(timeZone)),
      ("location", .text(location)),
      ("notes", .text(notes)),
      ("url", .text(url)),
      ("availability", .string(Self.name(of: availability))),
      ("status", .string(Self.name(of: status))),
      ("alarms", AlarmArgument.json(alarms)),
      ("recurrenceRules", .array(recurrenceRules.map { .string($0.description) })),
      ("exceptionDates", .array(exceptionDates.sorted().map(time))),
      ("recurrenceDates", .array(recurrenceDates.sorted().map(time))),
      ("occurrenceDate", time(occurrenceDate)),
      ("isDetached", .bool(isDetached)),
      ("version", .number(version.rawValue)),
      ("created", .text(creationDate?.description)),
      ("lastModified", .text(lastModifiedDate?.description)),
    ] + (birthdayContactID.map { [("birthdayContactId", .string($0.description))] } ?? [])
  }

  /// `local` written as the event writes its times: a date when all-day, else with its zone's offset.
  package func text(of local: LocalDateTime) -> String {
    DateArgument.text(local, isDate: isAllDay, zone: timeZone)
  }

  /// Table text that reads better than the JSON value's.
  package var tableCells: [String: String] {
    ["alarms": AlarmArgument.text(alarms)]
  }
}

extension Event {
  /// The JSON fields, plus `instanceStart`/`instanceEnd`: its times as a viewer in `zone` sees them.
  package func viewedFields(in zone: ZoneRules) -> [(String, JSONValue)] {
    jsonFields + [
      ("instanceStart", .string(shown(start, in: zone))),
      ("instanceEnd", .string(shown(end, in: zone))),
    ]
  }

  /// A time of this event as the viewer in `zone` sees it, with that zone's offset; a date for an
  /// all-day event; empty for none.
  package func shown(_ local: LocalDateTime?, in zone: ZoneRules) -> String {
    guard let local else { return "" }
    let utc = (timeZoneRules ?? zone).resolve(local)
    guard let viewed = zone.localDateTime(atUTC: utc) else { return "" }
    if isAllDay { return RFC3339Time.dateText(for: local) }
    return RFC3339Time.text(for: viewed, in: zone)
  }
}

extension Event {
  /// The title as tables show it: a cancelled event or occurrence is marked `[canceled]`, so that
  /// it does not read like one that takes place (the JSON says it in `status`).
  package var shownTitle: String { status == .canceled ? "\(title) [canceled]" : title }

  /// The case's name, spelled out: describing an enum reflects on it, which every event in a
  /// listing would pay for.
  static func name(of availability: Availability) -> String {
    switch availability {
    case .notSupported: "notSupported"
    case .busy: "busy"
    case .free: "free"
    case .tentative: "tentative"
    case .unavailable: "unavailable"
    }
  }

  /// The case's name, spelled out, as for availability.
  static func name(of status: Status) -> String {
    switch status {
    case .none: "none"
    case .confirmed: "confirmed"
    case .tentative: "tentative"
    case .canceled: "canceled"
    }
  }
}
