import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder show`: one reminder.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a reminder.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The reminder's id, the start of it (4 or more hex digits), or its title.") var id: String

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let reminder = try store.existingReminder(try store.reminderNamed(id))
      format.write(reminder.jsonFields, cells: reminder.tableCells)
    }
  }
}
