import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends events`: the range query.
  struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "events",
      abstract: "List the events and occurrences that overlap a time window, by start.",
      discussion: """
        The window is [--from, --to): an event overlaps it when it starts before --to and ends after \
        --from; one of zero duration when it starts at or after --from (RFC 4791 §9.9). Without \
        --from the window starts today, without --to it lasts a week. Dates and times are read as \
        typed (today, tomorrow 10:00, +3d, 2026-12-01) in --tz, else $TZ, else the settings' zone, else the system's, \
        which is also where times are shown and floating and all-day events are placed. Recurring series are expanded; no window is too long (json and jsonl are \
        streamed, a table is built in memory first).
        """)

    @OptionGroup var global: GlobalOptions

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The window's start: a date, a wall-clock time or an instant (default: today).", valueName: "date"))
    var from = "today"

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The window's end (exclusive; default: a week after --from).", valueName: "date"))
    var to: String?

    @Option(
      help: ArgumentHelp(
        "A calendar: a title or an id, or the start of either (repeatable; default: every event calendar).",
        valueName: "id"))
    var calendar: [String] = []

    @Option(
      help: ArgumentHelp(
        "The viewer's IANA time zone (default: $TZ's, else the settings', else the system's).", valueName: "zone"))
    var tz: String?

    @Option(help: "Output format: table, json (an array) or jsonl (one object per line, streamed).")
    var format: OutputFormat = .configured

    func run() throws {
      let zone = try DateArgument.zone(tz) ?? LocalZone.current
      let (start, end) = try DateArgument.window(from: from, to: to, defaultDays: 7, zone: zone)
      let store = try global.openEventStore(readOnly: true)
      let ids = try store.existingCalendarIDs(named: calendar, option: "--calendar")
      let predicate = EventPredicate(start: start, end: end, calendars: ids, viewerZone: zone)
      switch format {
      case .jsonl:
        try store.enumerateEvents(matching: predicate) { event in
          print(JSONValue.object(event.viewedFields(in: zone)).rendered())
          return true
        }
      case .json:
        // Streamed like jsonl, so a window of centuries costs output, not memory.
        var separator = "["
        try store.enumerateEvents(matching: predicate) { event in
          print(separator + JSONValue.object(event.viewedFields(in: zone)).rendered(), terminator: "")
          separator = ","
          return true
        }
        print(separator == "[" ? "[]" : "]")
      case .table:
        let events = try store.events(matching: predicate)
        let header = ["START", "END", "TITLE", "ID", "OCCURRENCE"]
        let rows = events.map { event in
          [
            event.shown(event.start, in: zone), event.shown(event.end, in: zone), event.shownTitle,
            event.id.description, event.occurrenceDate.map(event.text(of:)) ?? "",
          ]
        }
        print(TextTable.columns([header] + rows))
      }
    }
  }
}
