import ArgumentParser

/// `kalends calendar`: calendars and reminder lists.
struct CalendarCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar",
    abstract: "Create, list, change and remove calendars (of events, of reminders, or of both).",
    subcommands: [
      CalendarCreateCommand.self, CalendarListCommand.self, CalendarUpdateCommand.self, CalendarRemoveCommand.self,
    ]
  )
}
