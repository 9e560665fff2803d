import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends search`: events and reminders by what they say.
  struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "search",
      abstract: "Find events and reminders whose title, location or notes hold the words given.",
      discussion: """
        Every word given (quoted or not: `search dentist zurich` is `search "dentist zurich"`) must \
        begin a word of the item (case and accents ignored: "dent" finds \
        "Dentist", "zurich" finds "Zürich"). Answered from the search index, never by reading every \
        item. Without a window each event or series is listed once with its first start; with --from \
        and --to the occurrences in that window, as `events` lists them, that say it themselves. \
        Times are read and shown in --tz, else $TZ, else the settings' zone, else the system's. Contacts are found with \
        `contact search`. The table says in which calendar each was found and where it matched \
        (title, location, notes).
        """)

    enum Kind: String, CaseIterable, ExpressibleByArgument {
      case events, reminders
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The words to find.") var words: [String] = []

    /// The words given, as one text.
    var text: String { words.joined(separator: " ") }

    @Option(
      help: ArgumentHelp(
        "A calendar or reminders list: a title or an id, or the start of either (repeatable; default: all).",
        valueName: "id"))
    var calendar: [String] = []

    @Option(name: .customLong("only"), help: "Only events or only reminders.") var kind: Kind?

    @Option(parsing: .unconditional, help: ArgumentHelp("List occurrences from this time on.", valueName: "date"))
    var from: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("… until this time (exclusive).", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("The IANA time zone of the window and the times shown.", valueName: "zone"))
    var tz: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if (from == nil) != (to == nil) { throw ValidationError("give both --from and --to, or neither") }
    }

    func run() throws {
      guard !EventStore.searchWords(text).isEmpty else {
        throw CLIError.invalidInput("\"\(TerminalText.escaped(text))\" has no word to find")
      }
      let zone = try DateArgument.zone(tz) ?? LocalZone.current
      let window = try from.map { from in
        (
          try DateArgument(from, option: "--from").instant(in: zone),
          try DateArgument(to!, option: "--to").instant(in: zone)
        )
      }
      if let window, window.0 >= window.1 { throw CLIError.invalidInput("--to must be after --from") }
      let store = try global.openEventStore(readOnly: true)
      let ids = try store.existingCalendarIDs(named: calendar, option: "--calendar")
      // As `agenda`: an app may hold access to one of the two services only; refused when neither.
      let found = (
        events: kind == .reminders
          ? nil
          : try Self.unlessDenied { () throws(StoreError) in
            try store.searchEvents(text, inCalendars: ids)
          },
        reminders: kind == .events
          ? nil
          : try Self.unlessDenied { () throws(StoreError) in
            try store.searchReminders(text, inCalendars: ids)
          }
      )
      if found.events?.value == nil && found.reminders?.value == nil,
        let refusal = found.events?.refusal ?? found.reminders?.refusal
      {
        throw refusal
      }
      var events = found.events?.value ?? []
      let reminders = found.reminders?.value ?? []
      if let window, !events.isEmpty {
        events = try occurrences(of: events, in: window, zone: zone, store: store)
      }
      var rows: [[(String, JSONValue)]] = []
      var cells: [[String: String]] = []
      let titles = Dictionary(
        (try? store.calendars())?.map { ($0.id, $0.title) } ?? [], uniquingKeysWith: { first, _ in first })
      let sought = EventStore.searchWords(text)
      /// Which of `fields` (by name) hold a word that a word sought begins.
      func matched(_ fields: [(String, String?)]) -> [String] {
        fields.filter { _, value in
          let said = EventStore.searchWords(value ?? "")
          return sought.contains { word in said.contains { $0.hasPrefix(word) } }
        }.map(\.0)
      }
      for event: Kalends.Event in events {
        let matches = matched([("title", event.title), ("location", event.location), ("notes", event.notes)])
        rows.append(
          [("kind", .string("event"))] + (window == nil ? event.jsonFields : event.viewedFields(in: zone))
            + [("matched", .array(matches.map { .string($0) }))])
        cells.append([
          "when": event.shown(event.start, in: zone),
          "title": event.shownTitle,
          "calendar": event.calendarID.flatMap { titles[$0] } ?? "",
          "matched": matches.joined(separator: ", "),
        ])
      }
      for reminder in reminders {
        let matches = matched([("title", reminder.title), ("notes", reminder.notes)])
        rows.append(
          [("kind", .string("reminder"))] + reminder.jsonFields + [("matched", .array(matches.map { .string($0) }))])
        cells.append([
          "when": reminder.dueText.map { "due " + $0 } ?? "", "title": "☐ " + reminder.title,
          "calendar": reminder.calendarID.flatMap { titles[$0] } ?? "", "matched": matches.joined(separator: ", "),
        ])
      }
      guard format == .table else {
        print(JSONValue.array(rows.map { .object($0) }).rendered())
        return
      }
      guard !rows.isEmpty else {
        print("nothing says \"\(TerminalText.escaped(text))\"")
        return
      }
      let table = zip(rows, cells).map { row, cell in
        let id = row.first { $0.0 == "id" }.map { field -> String in
          if case .string(let text) = field.1 { return text } else { return "" }
        }
        return [
          cell["when"] ?? "", TerminalText.escaped(cell["title"] ?? ""), TerminalText.escaped(cell["calendar"] ?? ""),
          cell["matched"] ?? "", id ?? "",
        ]
      }
      print(TextTable.columns([["WHEN", "TITLE", "CALENDAR", "MATCHED", "ID"]] + table))
    }

    /// What `body` answers, or the refusal when the session is denied its service (recorded by the
    /// store); any other error is thrown.
    private static func unlessDenied<R>(
      _ body: () throws(StoreError) -> R
    ) throws(StoreError) -> (value: R?, refusal: StoreError?) {
      do {
        return (try body(), nil)
      } catch {
        // The compiler crashes on a pattern binding the case's values here (Swift 6.3.1).
        guard case .access(.accessDenied) = error else { throw error }
        return (nil, error)
      }
    }

    /// The occurrences of `events` in the window that say `text` themselves: an occurrence changed
    /// on its own may no longer.
    private func occurrences(
      of events: [Kalends.Event], in window: (Int64, Int64), zone: ZoneRules, store: EventStore
    ) throws -> [Kalends.Event] {
      let wanted = Set(events.map(\.id))
      let calendars = Array(Set(events.compactMap(\.calendarID)))
      let words = EventStore.searchWords(text)
      return try store.events(
        matching: EventPredicate(start: window.0, end: window.1, calendars: calendars, viewerZone: zone)
      ).filter { event in
        guard wanted.contains(event.id) else { return false }
        let said = [event.title, event.location ?? "", event.notes ?? ""].flatMap(EventStore.searchWords)
        return words.allSatisfy { word in said.contains { $0.hasPrefix(word) } }
      }
    }
  }
}
