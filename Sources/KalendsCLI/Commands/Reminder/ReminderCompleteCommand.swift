import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder complete`: marks a reminder done (or, with `--undo`, not done).
  struct Complete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "complete", abstract: "Mark a reminder completed (--undo: not completed) and print it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The reminder's id.") var id: String

    @Flag(help: "Mark it not completed again.") var undo = false

    @OptionGroup var change: ChangeOptions

    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let id = try ObjectID(argument: id)
      let store = try global.openEventStore()
      var reminder = try store.existingReminder(id)
      try change.check(id, fetched: reminder.version)
      reminder.isCompleted = !undo
      let saved = try store.save(reminder, overwrite: change.force)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
