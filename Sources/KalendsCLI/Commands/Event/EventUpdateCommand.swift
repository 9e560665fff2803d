import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Event {
  /// `kalends event update`: changes an event, a series, or occurrences of it.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "update",
      abstract: "Change an event, or occurrences of a series with --occurrence and --span, and print it.",
      discussion: """
        Only the fields given change; an empty value clears one (--location ''). Without --end the \
        event keeps its length; --tz alone keeps the wall-clock times in the new zone. On a series, \
        --occurrence names one occurrence and --span says what changes: this (only it, detached from \
        the series) or future (it and every later one: the series is split and the new series, with a \
        new id, is printed). Without --occurrence the whole series changes.
        """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var target: EventTarget

    @Option(
      help: ArgumentHelp("Move it to this calendar (a title or an id, or the start of either).", valueName: "calendar"))
    var calendar: String?
    @Option(help: "The title.") var title: String?
    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The start (the end moves with it unless --end is given).", valueName: "date"))
    var start: String?

    @OptionGroup var fields: EventOptions
    @OptionGroup var change: ChangeOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if calendar == nil && title == nil && start == nil && fields.isEmpty {
        throw ValidationError("nothing to change — give at least one field, such as --title")
      }
    }

    func run() throws {
      var edit = try fields.edit(title: title, start: start)
      let store = try global.openEventStore()
      edit.calendarID = try calendar.map { try store.calendarNamed($0, option: "--calendar") }
      var (event, span) = try target.fetch(from: store)
      try change.check(event.id, fetched: event.version)
      try edit.apply(to: &event)
      let saved = try store.save(event, span: span, overwrite: change.force)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
