import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder add`: a new reminder.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a reminder and print it.")

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "The reminders list: its title or id, or the start of either; default: the settings' reminder-list.",
        valueName: "list"))
    var calendar: String?
    @Option(help: "The title.") var title: String

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "When it is due: as typed (tomorrow 17:00, friday, +3d), 2026-03-29 (a date only), "
          + "2026-03-29T17:00:00 (in --tz, else $TZ's zone, else the settings', else the system's), or an instant such as 2026-03-29T17:00:00Z.",
        valueName: "date"))
    var due: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "When work on it starts, written as --due is (a date with a date, a time with a time); not after --due.",
        valueName: "date"))
    var start: String?

    @Option(
      help: ArgumentHelp(
        "The IANA time zone of the due and start times, such as Europe/Berlin, or floating.", valueName: "zone"))
    var tz: String?

    @Option(help: "0 (none), 1 (highest) … 9 (lowest).") var priority = 0
    @Option(help: "Free text.") var notes: String?

    @Option(help: ArgumentHelp("A recurrence rule in RRULE text (repeatable; needs --due).", valueName: "rule"))
    var rrule: [String] = []

    @Option(
      parsing: .unconditionalSingleValue,
      help: ArgumentHelp("An alarm relative to the due time: -15m, -1h, -2d (repeatable).", valueName: "offset"))
    var alarm: [String] = []

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      var reminder = Kalends.Reminder(
        calendarID: try store.calendarNamed(calendar, orSetting: .reminderList), title: title)
      let zone = try ZoneChoice(tz).forNewItem
      if let due { try reminder.setDue(try DateArgument(due, option: "--due"), in: zone) }
      if let start { try reminder.setStart(try DateArgument(start, option: "--start"), in: zone) }
      reminder.priority = priority
      reminder.notes = notes.flatMap { $0.isEmpty ? nil : $0 }
      reminder.recurrenceRules = try RecurrenceRuleArgument.parse(rrule)
      reminder.alarms = try alarm.filter { !$0.isEmpty }.map(AlarmArgument.parse)
      let saved = try store.save(reminder)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
