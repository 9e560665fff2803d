import ArgumentParser

extension KalendsCommand {
  /// `kalends calendar`: calendars and reminder lists.
  struct Calendar: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "calendar",
      abstract: "Create, list, change and remove calendars (of events, of reminders, or of both).",
      subcommands: [
        Create.self, List.self, Update.self, Remove.self,
        ItemHistoryCommand<CalendarHistoryKind>.self, ItemRestoreCommand<CalendarHistoryKind>.self,
      ]
    )
  }
}
