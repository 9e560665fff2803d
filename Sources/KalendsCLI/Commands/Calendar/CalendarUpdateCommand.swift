import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Calendar {
  /// `kalends calendar update`: renames, recolours or locks a calendar.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "update", abstract: "Change a calendar's title, colour or write access and print it.")

    /// `--read-only` or `--writable`.
    enum Access: String, EnumerableFlag {
      case readOnly, writable

      static func help(for value: Access) -> ArgumentHelp? {
        value == .readOnly ? "Its items can no longer be changed." : "Its items can be changed again."
      }
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The calendar: its title or id, or the start of either.", valueName: "calendar"))
    var id: String

    @Option(help: "The title.") var title: String?
    @Option(help: ArgumentHelp("The colour as #RRGGBB.", valueName: "color")) var color: String?
    @Flag var access: Access?

    @OptionGroup var change: ChangeOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if title == nil && color == nil && access == nil {
        throw ValidationError("nothing to change — give --title, --color, --read-only or --writable")
      }
    }

    func run() throws {
      let color = try color.map { text throws(RequestError) in try KalendsCommand.Calendar.Create.parseColor(text) }
      let store = try global.openEventStore()
      let id = try store.calendarNamed(id, option: "ID")
      var calendar = try store.existingCalendar(id)
      try change.check(id, fetched: calendar.version)
      if let title { calendar.title = title }
      if let color { calendar.color = color }
      if let access { calendar.allowsContentModifications = access == .writable }
      let saved = try store.save(calendar, overwrite: change.force)
      format.write(saved.jsonFields)
    }
  }
}
