import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends agenda`: what is on, day by day, in the person's zone.
  struct Agenda: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "agenda",
      abstract: "Show what is on, day by day: all-day events, then events by time, then reminders due.",
      discussion: """
        WHEN is today (the default), tomorrow, week (seven days from today), month (to the same day \
        of next month), one day as typed (friday, +3d, 2026-12-01), or FROM..TO (a day given as TO \
        is included; either side may be left out). Times are read and shown in --tz, else $TZ, else \
        the settings' zone, else the system's. Each day lists its all-day events, then its timed events (an event across \
        midnight on each of its days), then the incomplete reminders due that day; when the window \
        holds the present, reminders due before it come first as overdue. Cancelled events and \
        occurrences are marked. Colour (each calendar's) only on a terminal, and never with \
        NO_COLOR set. --format json gives the same days; --format ics the window's events and \
        reminders as an iCalendar file (whole series, as `kalends export --from --to` writes them).
        """)

    enum Format: String, ConfiguredFormat, CaseIterable, ExpressibleByArgument {
      case table, json, ics
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The days to show: \(AgendaWindow.forms).", valueName: "when"))
    var when: String = "today"

    @Option(
      help: ArgumentHelp(
        "A calendar or reminders list: a title or an id, or the start of either (repeatable; default: all).",
        valueName: "id"))
    var calendar: [String] = []

    @Option(help: ArgumentHelp("The IANA time zone to read and show times in.", valueName: "zone")) var tz: String?

    @Option(help: "Output format: table, json or ics.") var format: Format = .configured

    func run() throws {
      let zone = try DateArgument.zone(tz) ?? LocalZone.current
      let now = Int64(Date().timeIntervalSince1970)
      let window = try AgendaWindow(when, zone: zone, now: now)
      let store = try global.openEventStore(readOnly: true)
      // Both kinds, as `calendar list` lists them: an app may hold access to one service only.
      var calendars = try KalendsCommand.Calendar.List.visibleCalendars(store)
      if !calendar.isEmpty {
        let chosen = Set(try store.existingCalendarIDs(named: calendar, option: "--calendar"))
        calendars = calendars.filter { chosen.contains($0.id) }
      }
      let eventCalendars = calendars.filter { $0.allowedEntityTypes.contains(.events) }.map(\.id)
      let reminderCalendars = calendars.filter { $0.allowedEntityTypes.contains(.reminders) }.map(\.id)
      if format == .ics {
        let file = try store.exportICalendar(
          calendars: calendars.map(\.id), from: window.start, to: window.end, viewerZone: zone)
        print(file.serialized(), terminator: "")
        return
      }
      // An empty list of calendars means every calendar to the store: asked only when there are some.
      let events =
        eventCalendars.isEmpty
        ? []
        : try store.events(
          matching: EventPredicate(start: window.start, end: window.end, calendars: eventCalendars, viewerZone: zone))
      var reminders: [Kalends.Reminder] = []
      var overdue: [Kalends.Reminder] = []
      if !reminderCalendars.isEmpty {
        reminders = try store.incompleteReminders(
          dueFrom: window.start, to: window.end, inCalendars: reminderCalendars, viewerZone: zone)
        if window.start <= now && now < window.end {
          overdue = try store.incompleteReminders(
            dueFrom: .min, to: window.start, inCalendars: reminderCalendars, viewerZone: zone)
        }
      }
      let page = AgendaPage(
        window: window, zone: zone, now: now, events: events, reminders: reminders, overdue: overdue,
        calendars: Dictionary(calendars.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
      switch format {
      case .json: print(page.json().rendered())
      default:
        // https://no-color.org: a NO_COLOR that is set and not empty turns colour off.
        let colour = isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        print(page.text(colour: colour), terminator: "")
      }
    }
  }
}
