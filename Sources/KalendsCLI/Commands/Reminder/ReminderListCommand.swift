import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder list`: reminders, incomplete first.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List reminders: incomplete first, then by due date and title.")

    /// `--completed` or `--incomplete`.
    enum Completion: String, EnumerableFlag {
      case completed, incomplete

      static func help(for value: Completion) -> ArgumentHelp? {
        value == .completed ? "Only completed reminders." : "Only reminders not yet completed."
      }
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("A reminders list's id (repeatable; default: every list).", valueName: "id"))
    var calendar: [String] = []

    @Flag var completion: Completion?

    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let ids = try store.existingCalendarIDs(named: calendar, option: "--calendar")
      let reminders = try store.reminders(inCalendars: ids).filter { reminder in
        completion.map { ($0 == .completed) == reminder.isCompleted } ?? true
      }
      format.write(
        reminders, json: \.jsonFields,
        columns: [
          ("ID", \.id.description),
          ("DUE", { $0.dueText ?? "" }),
          ("PRIORITY", { $0.priority == 0 ? "" : String($0.priority) }),
          ("DONE", { $0.isCompleted ? "yes" : "" }),
          ("TITLE", \.title),
        ])
    }
  }
}
