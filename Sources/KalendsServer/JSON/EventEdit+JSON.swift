import Foundation
import Kalends
import KalendsFormats

extension EventEdit {
  /// The fields a read returns that a write takes back and ignores (OpenAPI `readOnly`): what the
  /// API gives, it takes back, so that an app can send a fetched event, changed, as it is.
  static let readOnlyFields: Set<String> = [
    "id", "externalId", "version", "created", "lastModified", "occurrenceDate", "isDetached", "birthdayContactId",
    "exceptionDates",
    "recurrenceDates", "instanceStart", "instanceEnd",
  ]

  /// The changes a JSON body states, with the names `event add` and `event update` print them
  /// (docs/server.md): `calendarId`, `title`, `start`, `end`, `timeZone`, `allDay`, `location`,
  /// `notes`, `url`, `recurrenceRules` (RRULE texts), `alarms` (offsets such as `-15m`, or
  /// `{"relativeOffset": -900}` as a read gives them), `availability`, `status`. A field left out
  /// is left as it is; an empty text or `null` clears `location`, `notes` and `url`; `null` leaves
  /// the others as they are. The read-only fields of a fetched event (``readOnlyFields``) are
  /// taken and ignored.
  init(json body: [String: Any]) throws(RequestError) {
    let known: Set<String> = [
      "calendarId", "title", "start", "end", "timeZone", "allDay", "location", "notes", "url", "recurrenceRules",
      "alarms", "availability", "status",
    ]
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) && !Self.readOnlyFields.contains($0) }) {
      throw RequestError.invalidInput("unknown field \"\(unknown)\"")
    }
    let clearedByNull: Set<String> = ["location", "notes", "url"]
    func text(_ key: String) throws(RequestError) -> String? {
      guard let value = body[key] else { return nil }
      if value is NSNull { return clearedByNull.contains(key) ? "" : nil }
      guard let text = value as? String else { throw RequestError.invalidInput("\(key) must be text") }
      return text
    }
    func texts(_ key: String) throws(RequestError) -> [String]? {
      guard let value = body[key] else { return nil }
      guard let texts = value as? [String] else { throw RequestError.invalidInput("\(key) must be an array of texts") }
      return texts
    }
    let allDay: Bool
    switch body["allDay"] {
    case nil: allDay = false
    case let flag as Bool: allDay = flag
    default: throw RequestError.invalidInput("allDay must be true or false")
    }
    let timing = EventTiming(
      start: try text("start").map { text throws(RequestError) in try DateArgument(text, option: "start", spoken: false)
      },
      end: try text("end").map { text throws(RequestError) in try DateArgument(text, option: "end", spoken: false) },
      zone: try DateArgument.zone(try text("timeZone"), option: "timeZone"), allDay: allDay)
    let availability = try text("availability").map { name throws(RequestError) in
      if name == "notSupported" { return Kalends.Event.Availability.notSupported }
      guard let value = EventAvailabilityName(rawValue: name) else {
        throw RequestError.invalidInput("availability is busy, free, tentative or unavailable, not \"\(name)\"")
      }
      return value.value
    }
    let status = try text("status").map { name throws(RequestError) in
      guard let value = EventStatusName(rawValue: name) else {
        throw RequestError.invalidInput("status is none, confirmed, tentative or canceled, not \"\(name)\"")
      }
      return value.value
    }
    self.init(
      calendarID: try text("calendarId").map { text throws(RequestError) in
        try ObjectID(argument: text, option: "calendarId")
      },
      title: try text("title"), timing: timing, location: try text("location"), notes: try text("notes"),
      url: try text("url"),
      rules: try texts("recurrenceRules").map { rules throws(RequestError) in try RecurrenceRuleArgument.parse(rules) },
      alarms: try Self.alarms(body["alarms"]),
      availability: availability, status: status)
  }

  /// The alarms of `value`: offsets as text (`-15m`) or as a read gives them
  /// (`{"relativeOffset": -900}`, in seconds); `nil` when absent or `null`.
  static func alarms(_ value: Any?) throws(RequestError) -> [Alarm]? {
    guard let value, !(value is NSNull) else { return nil }
    guard let list = value as? [Any] else { throw RequestError.invalidInput("alarms must be an array") }
    var alarms: [Alarm] = []
    for item in list {
      if let text = item as? String {
        if !text.isEmpty { alarms.append(try AlarmArgument.parse(text)) }
      } else if let object = item as? [String: Any], object.count == 1,
        // A JSON boolean is an NSNumber too (of type `c`): not an offset.
        let number = object["relativeOffset"] as? NSNumber, String(cString: number.objCType) != "c",
        let seconds = Int64(exactly: number.doubleValue), abs(seconds) <= 10 * 366 * 86_400
      {
        alarms.append(Alarm(relativeOffset: seconds))
      } else {
        throw RequestError.invalidInput("an alarm is an offset such as \"-15m\" or {\"relativeOffset\": -900}")
      }
    }
    return alarms
  }
}
