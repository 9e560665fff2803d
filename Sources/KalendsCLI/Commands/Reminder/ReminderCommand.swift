import ArgumentParser

/// `kalends reminder`: reminders (tasks).
struct ReminderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reminder",
    abstract: "Add, list, complete and remove reminders.",
    subcommands: [
      ReminderAddCommand.self, ReminderListCommand.self, ReminderCompleteCommand.self, ReminderRemoveCommand.self,
    ]
  )
}
