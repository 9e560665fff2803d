import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// The event fields `event add` and `event update` share. An empty value clears a field.
struct EventOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The end, in the same form as --start; exclusive (an all-day event on March 29 ends 2026-03-30). "
        + "Without it a new event with a time of day lasts an hour, a new all-day event its start's day, and "
        + "a changed event keeps its duration.",
      valueName: "date"))
  var end: String?

  @Option(
    help: ArgumentHelp(
      "The IANA time zone of the times, such as Europe/Berlin, or floating (default: the event's zone; for a "
        + "new or an all-day event, $TZ's, else the settings', else the system's).",
      valueName: "zone"))
  var tz: String?

  @Flag(help: "Make it an all-day event on the dates of --start and --end.")
  var allDay = false

  @Option(help: "Where it takes place.") var location: String?
  @Option(help: "Free text.") var notes: String?
  @Option(help: "A link.") var url: String?

  @Option(
    help: ArgumentHelp(
      "A recurrence rule in RRULE text, such as 'FREQ=WEEKLY;COUNT=5' (repeatable).", valueName: "rule"))
  var rrule: [String] = []

  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp("An alarm relative to the start: -15m, -1h, -2d (repeatable).", valueName: "offset"))
  var alarm: [String] = []

  @Option(help: "How it shows when others look for free time.") var availability: EventAvailabilityName?
  @Option(help: "The organizer's status.") var status: EventStatusName?

  /// Whether any field is given.
  var isEmpty: Bool {
    end == nil && tz == nil && !allDay && location == nil && notes == nil && url == nil && rrule.isEmpty
      && alarm.isEmpty && availability == nil && status == nil
  }

  /// The options parsed, with the title and start the command itself takes; the calendar is the
  /// command's to name once the store is open.
  func edit(title: String?, start: String?) throws(CLIError) -> EventEdit {
    let choice = try ZoneChoice(tz)
    var timing = EventTiming(
      start: try start.map { text throws(CLIError) in try DateArgument(text, option: "--start") },
      end: try end.map { text throws(CLIError) in try DateArgument(text, option: "--end") },
      zone: choice.named, allDay: allDay)
    timing.floating = choice == .floating
    timing.defaultZone = LocalZone.current
    return EventEdit(
      calendarID: nil,
      title: title, timing: timing, location: location, notes: notes, url: url,
      rules: rrule.isEmpty ? nil : try RecurrenceRuleArgument.parse(rrule),
      alarms: alarm.isEmpty ? nil : try alarm.filter { !$0.isEmpty }.map(AlarmArgument.parse),
      availability: availability?.value, status: status?.value)
  }
}
