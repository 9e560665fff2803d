import Foundation
import Kalends
import KalendsCommandSupport

extension EventEdit {
  /// The changes a JSON body states, with the names `event add` and `event update` print them
  /// (docs/server.md): `calendarId`, `title`, `start`, `end`, `timeZone`, `allDay`, `location`,
  /// `notes`, `url`, `recurrenceRules` (RRULE texts), `alarms` (offsets such as `-15m`),
  /// `availability`, `status`. A field left out is left as it is; an empty text clears it.
  init(json body: [String: Any]) throws(CLIError) {
    let known: Set<String> = [
      "calendarId", "title", "start", "end", "timeZone", "allDay", "location", "notes", "url", "recurrenceRules",
      "alarms", "availability", "status",
    ]
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) {
      throw CLIError.invalidInput("unknown field \"\(unknown)\"")
    }
    func text(_ key: String) throws(CLIError) -> String? {
      guard let value = body[key] else { return nil }
      guard let text = value as? String else { throw CLIError.invalidInput("\(key) must be text") }
      return text
    }
    func texts(_ key: String) throws(CLIError) -> [String]? {
      guard let value = body[key] else { return nil }
      guard let texts = value as? [String] else { throw CLIError.invalidInput("\(key) must be an array of texts") }
      return texts
    }
    let allDay: Bool
    switch body["allDay"] {
    case nil: allDay = false
    case let flag as Bool: allDay = flag
    default: throw CLIError.invalidInput("allDay must be true or false")
    }
    let timing = EventTiming(
      start: try text("start").map { text throws(CLIError) in try DateArgument(text, option: "start") },
      end: try text("end").map { text throws(CLIError) in try DateArgument(text, option: "end") },
      zone: try DateArgument.zone(try text("timeZone"), option: "timeZone"), allDay: allDay)
    let availability = try text("availability").map { name throws(CLIError) in
      guard let value = EventOptions.AvailabilityName(rawValue: name) else {
        throw CLIError.invalidInput("availability is busy, free, tentative or unavailable, not \"\(name)\"")
      }
      return value.value
    }
    let status = try text("status").map { name throws(CLIError) in
      guard let value = EventOptions.StatusName(rawValue: name) else {
        throw CLIError.invalidInput("status is none, confirmed, tentative or canceled, not \"\(name)\"")
      }
      return value.value
    }
    self.init(
      calendarID: try text("calendarId").map { text throws(CLIError) in
        try ObjectID(argument: text, option: "calendarId")
      },
      title: try text("title"), timing: timing, location: try text("location"), notes: try text("notes"),
      url: try text("url"),
      rules: try texts("recurrenceRules").map { rules throws(CLIError) in try RecurrenceRuleArgument.parse(rules) },
      alarms: try texts("alarms").map { alarms throws(CLIError) in
        try alarms.filter { !$0.isEmpty }.map(AlarmArgument.parse)
      },
      availability: availability, status: status)
  }
}
