import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Calendar {
  /// `kalends calendar remove`: a calendar and everything in it.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove a calendar and every event and reminder in it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The calendar: its title or id, or the start of either.", valueName: "calendar"))
    var id: String

    @OptionGroup var change: ChangeOptions

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.calendarNamed(id, option: "ID")
      let calendar = try store.existingCalendar(id)
      try change.check(id, fetched: calendar.version)
      try store.remove(calendar, overwrite: change.force)
      print("removed calendar \(id) (\(calendar.title)) and its items")
    }
  }
}
