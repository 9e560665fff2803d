import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder remove`: removes a reminder.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a reminder.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The reminder's id, the start of it (4 or more hex digits), or its title.") var id: String

    @OptionGroup var change: ChangeOptions

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.reminderNamed(id)
      let reminder = try store.existingReminder(id)
      try change.check(id, fetched: reminder.version)
      try store.remove(reminder, overwrite: change.force)
      print("removed reminder \(id) (\(reminder.title))")
    }
  }
}
