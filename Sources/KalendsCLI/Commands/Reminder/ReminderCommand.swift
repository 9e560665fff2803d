import ArgumentParser

extension KalendsCommand {
  /// `kalends reminder`: reminders (tasks).
  struct Reminder: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reminder",
      abstract: "Add, show, change, list, complete and remove reminders.",
      subcommands: [
        Add.self, Show.self, Update.self, List.self, Complete.self, Remove.self,
        ItemHistoryCommand<ReminderHistoryKind>.self, ItemRestoreCommand<ReminderHistoryKind>.self,
      ]
    )
  }
}
