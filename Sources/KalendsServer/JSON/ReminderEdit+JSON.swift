import Foundation
import Kalends
import KalendsFormats

extension ReminderEdit {
  /// The fields a read returns that a write takes back and ignores (OpenAPI `readOnly`).
  static let readOnlyFields: Set<String> = ["id", "externalId", "completionDate", "version", "created", "lastModified"]

  /// The changes a JSON body states, with the names a read gives them (docs/server.md):
  /// `calendarId`, `title`, `notes`, `dueDate` and `startDate` (RFC 3339 dates, wall-clock times
  /// or instants; `null` clears), `timeZone` (an IANA name; `null` makes the times floating),
  /// `priority` (0–9), `completed`, `recurrenceRules` (RRULE texts) and `alarms` (as for events).
  /// A field left out is left as it is; an empty text or `null` clears `notes`. The read-only
  /// fields of a fetched reminder (``readOnlyFields``) are taken and ignored.
  init(json body: [String: Any]) throws(RequestError) {
    let known: Set<String> = [
      "calendarId", "title", "notes", "dueDate", "startDate", "timeZone", "priority", "completed", "recurrenceRules",
      "alarms",
    ]
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) && !Self.readOnlyFields.contains($0) }) {
      throw RequestError.invalidInput("unknown field \"\(unknown)\"")
    }
    func text(_ key: String) throws(RequestError) -> String? {
      guard let value = body[key], !(value is NSNull) else { return nil }
      guard let text = value as? String else { throw RequestError.invalidInput("\(key) must be text") }
      return text
    }
    func date(_ key: String) throws(RequestError) -> DateChange {
      guard let value = body[key] else { return .keep }
      if value is NSNull { return .clear }
      guard let text = value as? String else { throw RequestError.invalidInput("\(key) must be text or null") }
      return .set(try DateArgument(text, option: key, spoken: false))
    }
    let zone: ZoneChange
    switch body["timeZone"] {
    case nil: zone = .keep
    case is NSNull: zone = .floating
    case let name as String: zone = .named(try DateArgument.zone(name, option: "timeZone")!)
    default: throw RequestError.invalidInput("timeZone must be an IANA zone name or null")
    }
    let priority: Int?
    switch body["priority"] {
    case nil: priority = nil
    // A JSON boolean is an NSNumber too (of type `c`): not a priority.
    case let number as NSNumber where String(cString: number.objCType) != "c":
      guard let value = Int(exactly: number.doubleValue), (0...9).contains(value) else {
        throw RequestError.invalidInput("priority is 0 (none) or 1 (highest) … 9 (lowest)")
      }
      priority = value
    default: throw RequestError.invalidInput("priority is 0 (none) or 1 (highest) … 9 (lowest)")
    }
    let completed: Bool?
    switch body["completed"] {
    case nil: completed = nil
    case let number as NSNumber where String(cString: number.objCType) == "c": completed = number.boolValue
    default: throw RequestError.invalidInput("completed must be true or false")
    }
    let rules: [RecurrenceRule]?
    switch body["recurrenceRules"] {
    case nil: rules = nil
    case let texts as [String]: rules = try RecurrenceRuleArgument.parse(texts)
    default: throw RequestError.invalidInput("recurrenceRules must be an array of texts")
    }
    self.init(
      calendarID: try text("calendarId").map { text throws(RequestError) in
        try ObjectID(argument: text, option: "calendarId")
      },
      title: try text("title"), due: try date("dueDate"), start: try date("startDate"), zone: zone,
      priority: priority, notes: body["notes"] is NSNull ? "" : try text("notes"), rules: rules,
      alarms: try EventEdit.alarms(body["alarms"]), completed: completed)
  }
}
