import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder complete`: marks a reminder done (or, with `--undo`, not done).
  struct Complete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "complete", abstract: "Mark a reminder completed (--undo: not completed) and print it.",
      discussion: """
        A repeating reminder is completed as Reminders completes it: the occurrence that is due \
        becomes a completed reminder of its own (printed, with a new id), and the reminder moves \
        on to its next occurrence (printed as "next"; a COUNT counts one fewer). When no \
        occurrence follows, the reminder itself is completed.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The reminder's id, the start of it (4 or more hex digits), or its title.") var id: String

    @Flag(help: "Mark it not completed again.") var undo = false

    @OptionGroup var change: ChangeOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.reminderNamed(id)
      var reminder = try store.existingReminder(id)
      try change.check(id, fetched: reminder.version)
      guard !undo else {
        reminder.isCompleted = false
        let saved = try store.save(reminder, overwrite: change.force)
        format.write(saved.jsonFields, cells: saved.tableCells)
        return
      }
      let (completed, next) = try store.completeOccurrence(of: id, fetched: change.force ? nil : reminder.version)
      var fields = completed.jsonFields
      var cells = completed.tableCells
      if let next {
        fields.append(("next", .object(next.jsonFields)))
        cells["next"] = "due \(next.dueText ?? "") (\(next.id))"
      }
      format.write(fields, cells: cells)
    }
  }
}
