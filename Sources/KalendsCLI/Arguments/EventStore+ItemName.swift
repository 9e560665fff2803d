import Kalends
import KalendsCommandSupport
import KalendsFormats

extension EventStore {
  /// The event `text` names, given to `option`: its id, or the one live event this store shows its
  /// caller whose id begins with `text` (at least four hex digits, dashes ignored), as git takes
  /// commits; else the one whose title is `text` (either case: `kalends event history Standup`).
  /// A full id is taken as it is (a missing event is the command's not-found, exit 66); two or
  /// more are refused (exit 65) listing them; none is not found (exit 66).
  func eventNamed(_ text: String, option: String = "ID") throws -> ObjectID {
    if let id = ObjectID(text) { return id }
    let byID = IDPrefixScan.nibbles(text) == nil ? [] : try eventIDs(beginningWith: text, limit: 6)
    if byID.isEmpty, let titled = try Self.titled(text, try searchEvents(text), \.title, \.id, option, "event") {
      return titled
    }
    try Self.checkPrefix(text, option: option, orTitleOf: "event")
    return try Self.one(text, option: option, kind: "event", found: byID) { try event(withID: $0)?.title }
  }

  /// The reminder `text` names, as ``eventNamed(_:option:)`` finds events.
  func reminderNamed(_ text: String, option: String = "ID") throws -> ObjectID {
    if let id = ObjectID(text) { return id }
    let byID = IDPrefixScan.nibbles(text) == nil ? [] : try reminderIDs(beginningWith: text, limit: 6)
    if byID.isEmpty,
      let titled = try Self.titled(text, try searchReminders(text), \.title, \.id, option, "reminder")
    {
      return titled
    }
    try Self.checkPrefix(text, option: option, orTitleOf: "reminder")
    return try Self.one(text, option: option, kind: "reminder", found: byID) { try reminder(withID: $0)?.title }
  }

  /// The one item of `found` (a search's answer) whose title is `text` (either case); `nil` when
  /// none is; several are refused (exit 65), listing them by id.
  private static func titled<Item>(
    _ text: String, _ found: [Item], _ title: KeyPath<Item, String>, _ id: KeyPath<Item, ObjectID>, _ option: String,
    _ kind: String
  ) throws -> ObjectID? {
    let folded = text.lowercased()
    var ids: [ObjectID] = []
    for item in found where item[keyPath: title].lowercased() == folded && !ids.contains(item[keyPath: id]) {
      ids.append(item[keyPath: id])
    }
    guard ids.count > 1 else { return ids.first }
    throw CLIError.invalidInput(
      "\(option): \(ids.count) \(kind)s are titled \(TerminalText.escaped(text)): "
        + ids.prefix(5).map(\.description).joined(separator: ", ") + " — give the start of its id")
  }

  /// The contact `text` names, as ``eventNamed(_:option:)`` finds events.
  func contactNamed(_ text: String, option: String = "ID") throws -> ObjectID {
    if let id = ObjectID(text) { return id }
    try Self.checkPrefix(text, option: option)
    return try Self.one(
      text, option: option, kind: "contact", found: try contactStore.contactIDs(beginningWith: text, limit: 6)
    ) {
      try contactStore.contact(withID: $0)?.displayName
    }
  }

  /// The group `text` names, given to `option`: its id; else a group this store shows its caller
  /// whose name is `text`, then the one whose name begins with it (either case), then the one whose
  /// id begins with it (4 or more hex digits). Two or more are refused (exit 65) listing them;
  /// none is not found (exit 66).
  func groupNamed(_ text: String, option: String = "ID") throws -> ObjectID {
    if let id = ObjectID(text) { return id }
    let groups = try contactStore.groups()
    let folded = text.lowercased()
    let nibbles = IDPrefixScan.nibbles(text)
    let candidates: [[ContactGroup]] = [
      groups.filter { $0.name == text },
      groups.filter { $0.name.lowercased().hasPrefix(folded) },
      nibbles.map { prefix in
        groups.filter { IDPrefixScan.nibbles($0.id.description).map { $0.starts(with: prefix) } == true }
      } ?? [],
    ]
    guard let found = candidates.first(where: { !$0.isEmpty }) else {
      throw CLIError(
        message: "\(option): no group is named or has an id beginning \(TerminalText.escaped(text)) — "
          + "`kalends group list` shows them",
        status: .notFound)
    }
    let names = Dictionary(groups.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    return try Self.one(text, option: option, kind: "group", found: found.map(\.id)) { names[$0] }
  }

  /// The object of `kind` that `text` names for `history` and `restore`: its id, or the one object
  /// of that kind — live or removed — whose id begins with `text`, as ``eventNamed(_:option:)``
  /// reads prefixes; a calendar, an event or a reminder also by the title of a live one.
  func itemNamed(_ text: String, _ kind: ErasableItem.Kind, option: String = "ID") throws -> ErasableItem {
    if let id = ObjectID(text) { return kind.item(id) }
    let byTitle: Set<ErasableItem.Kind> = [.calendar, .event, .reminder]
    if IDPrefixScan.nibbles(text) != nil {
      let found = try items(kind, beginningWith: text, limit: 6).map(\.id)
      if !found.isEmpty || !byTitle.contains(kind) {
        return kind.item(try Self.one(text, option: option, kind: kind.rawValue, found: found) { _ in nil })
      }
    }
    switch kind {
    case .calendar: return .calendar(try calendarNamed(text, option: option))
    case .event: return kind.item(try eventNamed(text, option: option))
    case .reminder: return kind.item(try reminderNamed(text, option: option))
    default: break
    }
    try Self.checkPrefix(text, option: option)
    throw CLIError.invalidInput("\(option): \"\(TerminalText.escaped(text))\" names no \(kind.rawValue)")
  }

  /// Refuses (exit 65) what is neither an id nor the start of one: hex digits and dashes, at
  /// least four digits.
  /// With `kind`, the refusal says that no such item has that title either.
  private static func checkPrefix(_ text: String, option: String, orTitleOf kind: String? = nil) throws {
    guard IDPrefixScan.nibbles(text) != nil else {
      let title = kind.map { ", nor the title of \($0 == "event" ? "an" : "a") \($0)" } ?? ""
      throw CLIError.invalidInput(
        "\(option): \"\(TerminalText.escaped(text))\" is not an identifier nor the start of one (4 or more hex "
          + "digits)\(title) — use the id a list or show command prints")
    }
  }

  private static func one(
    _ text: String, option: String, kind: String, found: [ObjectID], title: (ObjectID) throws -> String?
  ) throws -> ObjectID {
    if found.count == 1 { return found[0] }
    guard found.isEmpty else {
      let listed = try found.prefix(5).map { id in
        try title(id).map { "\(id) \(TerminalText.escaped($0))" } ?? id.description
      }
      throw CLIError.invalidInput(
        "\(option): \(found.count > 5 ? "more than five" : "\(found.count)") \(kind)s have an id beginning "
          + "\(text): \(listed.joined(separator: ", ")) — give more of the id")
    }
    throw CLIError(
      message: "\(option): no \(kind) has an id beginning \(TerminalText.escaped(text)) — a list command shows them",
      status: .notFound)
  }
}
