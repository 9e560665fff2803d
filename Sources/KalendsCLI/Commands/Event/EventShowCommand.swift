import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Event {
  /// `kalends event show`: one event, series or occurrence.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Print an event, a series, or with --occurrence one occurrence of it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The event's id, the start of it (4 or more hex digits), or its title.") var id: String

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The occurrence's original start (a date alone: the occurrence that day).", valueName: "date"))
    var occurrence: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let event = try EventLookup.fetch(try store.eventNamed(id), occurrence: occurrence, in: store)
      format.write(event.jsonFields, cells: event.tableCells)
    }
  }
}
