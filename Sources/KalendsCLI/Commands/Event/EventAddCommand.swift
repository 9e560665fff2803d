import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Event {
  /// `kalends event add`: creates an event or a recurring series.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add an event (a series with --rrule) and print it.")

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "The calendar: its title (or the start of it), or its id (or the start of it); default: the settings' calendar.",
        valueName: "calendar"))
    var calendar: String?
    @Option(help: "The title.") var title: String

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The start: 2026-03-29 (all-day), 2026-03-29T09:30:00, 2026-03-29T09:30:00Z or 2026-03-29T09:30:00+02:00.",
        valueName: "date"))
    var start: String

    @OptionGroup var fields: EventOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      var edit = try fields.edit(title: title, start: start)
      // As calendar programs make one: an hour, unless --end says otherwise.
      edit.timing.newEventLength = 3_600
      let store = try global.openEventStore()
      edit.calendarID = try store.calendarNamed(calendar, orSetting: .calendar)
      var event = Kalends.Event(calendarID: nil, title: title, start: nil, end: nil, timeZone: nil)
      try edit.apply(to: &event)
      let saved = try store.save(event, span: .thisEvent)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
