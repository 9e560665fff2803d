import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder update`: changes a reminder's fields.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "update", abstract: "Change a reminder and print it.",
      discussion: """
        Only the fields given change; an empty value clears one (--due '', --notes ''). Dates and \
        times are read as typed (tomorrow 17:00, +3d, 2026-12-01); a time is in --tz, else the \
        reminder's zone (a floating time stays floating), else in $TZ's zone, the settings' or the system's; --tz \
        alone keeps the wall-clock times in the new zone (--tz floating makes them floating). --rrule and --alarm replace all of the reminder's rules or alarms \
        (one empty value removes them). Completing is `reminder complete`.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The reminder's id, the start of it (4 or more hex digits), or its title.") var id: String

    @Option(
      help: ArgumentHelp(
        "Move it to this reminders list (a title or an id, or the start of either).", valueName: "list"))
    var calendar: String?
    @Option(help: "The title.") var title: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("When it is due: a date, a time or an instant, as typed ('' for none).", valueName: "date"))
    var due: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("When work on it starts, written as the due date is ('' for none).", valueName: "date"))
    var start: String?

    @Option(help: ArgumentHelp("The IANA time zone of its times, or floating.", valueName: "zone"))
    var tz: String?

    @Option(help: "0 (none), 1 (highest) … 9 (lowest).") var priority: Int?
    @Option(help: "Free text ('' for none).") var notes: String?

    @Option(help: ArgumentHelp("A recurrence rule in RRULE text (repeatable; replaces the rules).", valueName: "rule"))
    var rrule: [String] = []

    @Option(
      parsing: .unconditionalSingleValue,
      help: ArgumentHelp(
        "An alarm relative to the due time: -15m, -1h (repeatable; replaces them).", valueName: "offset"))
    var alarm: [String] = []

    @OptionGroup var change: ChangeOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      let given: [Any?] = [calendar, title, due, start, tz, priority, notes]
      if given.allSatisfy({ $0 == nil }) && rrule.isEmpty && alarm.isEmpty {
        throw ValidationError("nothing to change — give at least one field, such as --due")
      }
    }

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.reminderNamed(id)
      var reminder = try store.existingReminder(id)
      try change.check(id, fetched: reminder.version)
      if let calendar { reminder.calendarID = try store.calendarNamed(calendar, option: "--calendar") }
      if let title { reminder.title = title }
      let choice = try ZoneChoice(tz)
      let hadTime = (reminder.dueDate ?? reminder.startDate) != nil && !reminder.isDueDateOnly
      if choice != .unspecified { reminder.timeZone = choice.named?.identifier }
      let zone =
        choice == .unspecified && reminder.timeZone == nil && !hadTime
        ? LocalZone.current : try DateArgument.zone(reminder.timeZone)
      if let due {
        if due.isEmpty {
          reminder.dueDate = nil
        } else {
          try reminder.setDue(try DateArgument(due, option: "--due"), in: zone)
        }
      }
      if let start {
        if start.isEmpty {
          reminder.startDate = nil
        } else {
          try reminder.setStart(try DateArgument(start, option: "--start"), in: zone)
        }
      }
      if let priority { reminder.priority = priority }
      if let notes { reminder.notes = notes.isEmpty ? nil : notes }
      if !rrule.isEmpty { reminder.recurrenceRules = try RecurrenceRuleArgument.parse(rrule.filter { !$0.isEmpty }) }
      if !alarm.isEmpty { reminder.alarms = try alarm.filter { !$0.isEmpty }.map(AlarmArgument.parse) }
      let saved = try store.save(reminder, overwrite: change.force)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
