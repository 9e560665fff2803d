import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Calendar {
  /// `kalends calendar create`: a new calendar.
  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create", abstract: "Create a calendar and print it with its id.")

    /// What the calendar holds; fixed once it is created.
    enum Holds: String, EnumerableFlag {
      case events, reminders, eventsAndReminders

      static func help(for value: Holds) -> ArgumentHelp? {
        switch value {
        case .events: "It holds events (the default)."
        case .reminders: "It holds reminders (a reminders list)."
        case .eventsAndReminders: "It holds both."
        }
      }

      var entityTypes: EntityTypes {
        switch self {
        case .events: .events
        case .reminders: .reminders
        case .eventsAndReminders: [.events, .reminders]
        }
      }
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The title.") var title: String

    @Option(help: ArgumentHelp("The colour as #RRGGBB.", valueName: "color")) var color = "#1BADF8"

    @Flag var holds: Holds = .events

    @Flag(help: "Its items cannot be added, changed or removed.") var readOnly = false

    @Option(
      help: ArgumentHelp(
        "Make it in this account (by name or id): the next sync makes it on the server (MKCALENDAR).",
        valueName: "account"))
    var account: String?

    @Flag(
      help: ArgumentHelp(
        "Add the birthdays calendar: read-only, its events the contacts' birthdays and anniversaries, "
          + "each app seeing only those of the contacts it may see."))
    var birthdays = false

    @Flag(help: "Create it even when a calendar already has this title (then name them by id).")
    var force = false

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      var calendar = EventCalendar(
        title: title, color: try Self.parseColor(color), allowedEntityTypes: holds.entityTypes,
        allowsContentModifications: !readOnly)
      let store = try global.openEventStore()
      if birthdays {
        guard account == nil, !readOnly, holds == .events else {
          throw CLIError.invalidInput("--birthdays takes no --account, --read-only or --reminders: it is what it is")
        }
        format.write(try store.addBirthdaysCalendar(title: title, color: try Self.parseColor(color)).jsonFields)
        return
      }
      if let account {
        guard !readOnly else { throw CLIError.invalidInput("--read-only and --account: the server says who may write") }
        calendar.source = try KalendsCommand.Account.named(account, in: store).source
      }
      // Calendars are named by title: a second of the same title makes the name ambiguous. An app
      // checks what it may list: a calendar app without reminders access still creates calendars.
      let listed: EntityTypes
      if case .client = store.actor { listed = holds.entityTypes } else { listed = [.events, .reminders] }
      if !force,
        let same = try store.calendars(for: listed).first(where: { $0.title.lowercased() == title.lowercased() })
      {
        throw CLIError(
          message: "a calendar titled \"\(TerminalText.escaped(same.title))\" exists (\(same.id)) — "
            + "choose another title, or add --force to have two",
          status: .conflict)
      }
      let saved = try store.save(calendar)
      format.write(saved.jsonFields)
    }

    /// `--color` as stored: `#RRGGBB` in upper case.
    static func parseColor(_ text: String) throws(RequestError) -> String {
      try CalendarColor.parse(text, option: "--color")
    }
  }
}
