package import Kalends

extension ItemVersion {
  /// `{"version", "timestamp", "actor", "action", "calendarId"?, "restoredFrom"?, "splitFrom"?,
  /// "content", "state"}`: `state` is the object as this save left it, `null` for a removal, an
  /// erasure or an erased save.
  package var jsonFields: [(String, JSONValue)] {
    var fields: [(String, JSONValue)] = [
      ("version", .number(Double(position.rawValue))),
      ("timestamp", .string(timestamp.description)),
      ("actor", principal.json),
      ("action", .string(action.description)),
    ]
    if case .removedWithCalendar(let calendar) = action { fields.append(("calendarId", .string(calendar.description))) }
    if let restoredFrom { fields.append(("restoredFrom", .number(Double(restoredFrom.rawValue)))) }
    if let splitFrom { fields.append(("splitFrom", .string(splitFrom.description))) }
    fields.append(("content", .string(content == .present ? "present" : "erased")))
    fields.append(("state", state.map { .object($0.jsonFields) } ?? .null))
    return fields
  }

  /// What the version did, in words: `modified`, `created (restored from 12)`, `removed with
  /// calendar …`, `occurrenceDetached (content erased)`.
  package var actionText: String {
    var text: String
    switch action {
    case .removedWithCalendar(let calendar): text = "removed with calendar \(calendar)"
    case .contentErased: text = "content erased"
    default: text = action.description
    }
    if let restoredFrom { text += " (restored from \(restoredFrom))" }
    if let splitFrom { text += " (split from \(splitFrom))" }
    if case .saved = action, state == nil { text += " (content erased)" }
    return text
  }
}

extension ItemState {
  /// The object's JSON fields, as its own `show` command prints them.
  package var jsonFields: [(String, JSONValue)] {
    switch self {
    case .calendar(let calendar): calendar.jsonFields
    case .event(let event): event.jsonFields
    case .reminder(let reminder): reminder.jsonFields
    case .contact(let contact): contact.jsonFields
    case .group(let group): group.jsonFields
    }
  }

  /// The fields (by their JSON names) whose values differ from `previous` — what a save changed;
  /// every field for a first state. The object's bookkeeping (its version and its times of change)
  /// is left out: it changes with every save.
  package func changedFields(from previous: ItemState?) -> [String] {
    let bookkeeping: Set<String> = ["version", "lastModified", "modified", "created"]
    let mine = jsonFields.filter { !bookkeeping.contains($0.0) }
    guard let previous else { return mine.map(\.0) }
    let theirs = Dictionary(
      previous.jsonFields.map { ($0.0, $0.1.rendered()) }, uniquingKeysWith: { first, _ in first })
    let keys = Set(mine.map(\.0))
    let changed = mine.filter { theirs[$0.0] != $0.1.rendered() }.map(\.0)
    let dropped = theirs.keys.filter { !keys.contains($0) && !bookkeeping.contains($0) }.sorted()
    return changed + dropped
  }

  /// Table text that reads better than the JSON value's.
  package var tableCells: [String: String] {
    switch self {
    case .event(let event): event.tableCells
    case .reminder(let reminder): reminder.tableCells
    case .contact(let contact): contact.tableCells
    default: [:]
    }
  }
}
