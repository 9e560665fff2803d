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

    @Argument(help: "The calendar's id.") var id: String

    @OptionGroup var change: ChangeOptions

    func run() throws {
      let id = try ObjectID(argument: id)
      let store = try global.openEventStore()
      let calendar = try store.existingCalendar(id)
      try change.check(id, fetched: calendar.version)
      try store.remove(calendar, overwrite: change.force)
      print("removed calendar \(id) (\(calendar.title)) and its items")
    }
  }
}
