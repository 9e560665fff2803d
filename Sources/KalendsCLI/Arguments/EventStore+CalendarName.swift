import Kalends
import KalendsCommandSupport
import KalendsFormats

extension EventStore {
  /// The calendar `--calendar` names (`text`), else the one the settings file's `key` names
  /// (`ConfigKey.calendar` for events, `ConfigKey.reminderList` for reminders); neither is a
  /// usage error (exit 64) saying both ways.
  func calendarNamed(_ text: String?, orSetting key: ConfigKey) throws -> ObjectID {
    if let text { return try calendarNamed(text, option: "--calendar") }
    let file = ConfigFile.loaded
    guard let setting = file.value(of: key) else {
      throw CLIError(message: "give --calendar, or set \(key.rawValue) in \(file.path)", status: .usage)
    }
    return try calendarNamed(setting, option: "\(key.rawValue) (\(file.path))")
  }

  /// The calendar `text` names, given to `option`: its id; else its title, exactly, then without
  /// regard to case, then as the one title it begins (case ignored); else the one id that begins
  /// with it (at least four hex digits, as git takes commits). Looked up among the calendars this
  /// store shows its caller (an app's session: those it may use).
  ///
  /// A full id is taken as it is, without looking: a missing calendar is the command's not-found
  /// (exit 66), as before names. Two or more calendars answering one step is refused (exit 65),
  /// listing them; none at all is not found (exit 66).
  func calendarNamed(_ text: String, option: String) throws -> ObjectID {
    if let id = ObjectID(text) { return id }
    let folded = text.lowercased()
    let steps: [(String, (EventCalendar) -> Bool)] = [
      ("titled", { $0.title == text }),
      ("titled", { $0.title.lowercased() == folded }),
      ("whose title begins with", { $0.title.lowercased().hasPrefix(folded) }),
      (
        "whose id begins with",
        { text.count >= 4 && text.allSatisfy(\.isHexDigit) && $0.id.description.lowercased().hasPrefix(folded) }
      ),
    ]
    let found = try Self.uniqueMatch(
      text, option: option, among: try calendars(), steps: steps, noun: "calendars",
      describe: { "\(TerminalText.escaped($0.title)) (\($0.id))" }, hint: "give more of the title or of the id")
    guard let found else {
      throw CLIError(
        message: "\(option): no calendar is named \"\(TerminalText.escaped(text))\" — kalends calendar list shows them",
        status: .notFound)
    }
    return found.id
  }

  /// The one of `candidates` that the first of `steps` matching any of them picks, for `text`
  /// given to `option`; `nil` when no step matches any (or `text` is empty). Two or more at one
  /// step are refused (exit 65), each `described`, with `hint` saying what to give instead.
  static func uniqueMatch<T>(
    _ text: String, option: String, among candidates: [T], steps: [(String, (T) -> Bool)], noun: String,
    describe: (T) -> String, hint: String
  ) throws -> T? {
    for (what, matches) in steps where !text.isEmpty {
      let found = candidates.filter(matches)
      if found.count == 1 { return found[0] }
      if found.count > 1 {
        let listed = found.map(describe).joined(separator: ", ")
        throw CLIError.invalidInput(
          "\(option): \(found.count) \(noun) \(what) \"\(TerminalText.escaped(text))\": \(listed) — \(hint)")
      }
    }
    return nil
  }

  /// The calendars `texts` name, given to `option` (``calendarNamed(_:option:)``), every one then
  /// looked up: one that does not exist is not found (exit 66).
  func existingCalendarIDs(named texts: [String], option: String) throws -> [ObjectID] {
    let ids = try texts.map { try calendarNamed($0, option: option) }
    for id in ids { _ = try existingCalendar(id) }
    return ids
  }
}
