import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Event {
  /// `kalends event list`: the events of some calendars, each series once.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the events of calendars (each series once), by start.")

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "A calendar: a title or an id, or the start of either (repeatable; default: every event calendar).",
        valueName: "id"))
    var calendar: [String] = []

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let ids = try calendar.map { try store.calendarNamed($0, option: "--calendar") }
      var events: [Kalends.Event] = []
      for id in try ids.isEmpty ? store.calendars(for: .events).map(\.id) : ids {
        _ = try store.existingCalendar(id)
        events += try store.events(inCalendar: id)
      }
      events.sort { ($0.start ?? .min, $0.id) < ($1.start ?? .min, $1.id) }
      format.write(
        events, json: \.jsonFields,
        columns: [
          ("ID", \.id.description),
          ("START", { event in event.start.map(event.text(of:)) ?? "" }),
          ("END", { event in event.end.map(event.text(of:)) ?? "" }),
          ("REPEATS", { $0.recurrenceRules.map(\.description).joined(separator: " + ") }),
          ("TITLE", \.shownTitle),
        ])
    }
  }
}
