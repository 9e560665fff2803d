import Kalends
import KalendsFormats

/// What `kalends agenda` shows, laid out by the wall-clock days of its zone: each day's all-day
/// events, its timed events (an event across midnight on each day it touches), and the reminders
/// due that day; and the overdue reminders before them.
struct AgendaPage {
  /// One day's entries.
  struct Day {
    let date: LocalDateTime
    var allDay: [Event] = []
    var timed: [(event: Event, start: Int64, end: Int64)] = []
    var reminders: [(reminder: Reminder, due: Int64)] = []
  }

  let window: AgendaWindow
  let zone: ZoneRules
  let now: Int64
  let overdue: [(reminder: Reminder, due: Int64)]
  let days: [Day]
  let calendars: [ObjectID: EventCalendar]

  init(
    window: AgendaWindow, zone: ZoneRules, now: Int64, events: [Event], reminders: [Reminder], overdue: [Reminder],
    calendars: [ObjectID: EventCalendar]
  ) {
    (self.window, self.zone, self.now, self.calendars) = (window, zone, now, calendars)
    var days: [Int64: Day] = [:]
    func day(_ utc: Int64) -> LocalDateTime { AgendaWindow.day(containing: utc, in: zone) }
    func add(_ date: LocalDateTime, _ change: (inout Day) -> Void) {
      change(&days[date.wallClockSeconds, default: Day(date: date)])
    }
    for event in events {
      let (start, end) = Self.interval(event, zone)
      // The days it touches within the window: its last instant's day (its start's when it has none).
      let first = max(start, window.start)
      let last = end > start ? max(first, min(end, window.end) - 1) : first
      var date = day(first)
      let lastDate = day(last)
      while date <= lastDate {
        if event.isAllDay {
          add(date) { $0.allDay.append(event) }
        } else {
          add(date) { $0.timed.append((event, start, end)) }
        }
        date = AgendaWindow.days(date, 1)
      }
    }
    for reminder in reminders {
      let due = Self.due(reminder, zone)
      add(day(due)) { $0.reminders.append((reminder, due)) }
    }
    self.overdue = overdue.map { ($0, Self.due($0, zone)) }
    self.days = days.values.sorted { $0.date < $1.date }.map { day in
      var day = day
      day.allDay.sort { ($0.title, $0.id) < ($1.title, $1.id) }
      day.timed.sort { ($0.start, $0.end, $0.event.title) < ($1.start, $1.end, $1.event.title) }
      return day
    }
  }

  /// An event's instance as UTC seconds: in its own zone, or (floating, all-day) in the viewer's.
  static func interval(_ event: Event, _ zone: ZoneRules) -> (Int64, Int64) {
    let own = event.timeZoneRules
    let start = (own ?? zone).resolve(event.start ?? .min)
    return (start, max(start, (own ?? zone).resolve(event.end ?? event.start ?? .min)))
  }

  /// When a reminder is due, UTC seconds: a date-only due date at the start of its day.
  static func due(_ reminder: Reminder, _ zone: ZoneRules) -> Int64 {
    (reminder.dueZone ?? zone).resolve(reminder.dueDate ?? .max)
  }

  // MARK: Text

  /// The page as text; with `colour`, each title after a dot in its calendar's colour and cancelled
  /// events struck through (the words `[canceled]` otherwise).
  func text(colour: Bool) -> String {
    var lines: [(time: String, title: String, calendar: String)?] = []
    var headings: [Int: String] = [:]
    if !overdue.isEmpty {
      headings[lines.count] = "Overdue"
      for (reminder, due) in overdue { lines.append(reminderLine(reminder, due, withDate: true, colour: colour)) }
    }
    let today = AgendaWindow.day(containing: now, in: zone)
    for day in days {
      if !lines.isEmpty { lines.append(nil) }
      let relative =
        day.date == today
        ? " — today" : day.date == AgendaWindow.days(today, 1) ? " — tomorrow" : ""
      headings[lines.count] = Self.heading(day.date) + relative
      for event in day.allDay { lines.append(("all day", title(event, colour), shownCalendar(event.calendarID))) }
      for (event, start, end) in day.timed {
        lines.append((timeText(start, end, on: day.date), title(event, colour), shownCalendar(event.calendarID)))
      }
      for (reminder, due) in day.reminders {
        lines.append(reminderLine(reminder, due, withDate: false, colour: colour))
      }
    }
    guard !lines.isEmpty else {
      let first = AgendaWindow.day(containing: window.start, in: zone)
      let last = AgendaWindow.day(containing: window.end - 1, in: zone)
      return first == last
        ? "Nothing on \(Self.heading(first)).\n" : "Nothing from \(Self.heading(first)) to \(Self.heading(last)).\n"
    }
    let timeWidth = lines.compactMap { $0?.time.count }.max() ?? 0
    let titleWidth = min(48, lines.compactMap { $0.map { visibleWidth($0.title) } }.max() ?? 0)
    var out = ""
    for (index, line) in lines.enumerated() {
      if let heading = headings[index] { out += heading + "\n" }
      guard let line else {
        out += "\n"
        continue
      }
      let time = line.time.rightPadded(to: timeWidth)
      let title = line.title + String(repeating: " ", count: max(0, titleWidth - visibleWidth(line.title)))
      out += "  \(time)  \(title)  \(line.calendar)\n"
    }
    return out
  }

  private func reminderLine(
    _ reminder: Reminder, _ due: Int64, withDate: Bool, colour: Bool
  ) -> (time: String, title: String, calendar: String) {
    var time = "due"
    if let local = zone.localDateTime(atUTC: due) {
      if withDate { time += " " + RFC3339Time.dateText(for: local) }
      if !reminder.isDueDateOnly { time += " " + Self.clock(local) }
    }
    let mark = colour ? dot(reminder.calendarID) : ""
    return (time, mark + "☐ " + TerminalText.escaped(reminder.title), shownCalendar(reminder.calendarID))
  }

  /// The time column of a timed event on `date`: its times that fall on that day, arrows for the
  /// ends that fall on others.
  private func timeText(_ start: Int64, _ end: Int64, on date: LocalDateTime) -> String {
    let startsToday = AgendaWindow.day(containing: start, in: zone) == date
    let endsToday = end == start || AgendaWindow.day(containing: end - 1, in: zone) == date
    let from = zone.localDateTime(atUTC: start).map(Self.clock) ?? ""
    let to = zone.localDateTime(atUTC: end).map(Self.clock) ?? ""
    switch (startsToday, endsToday) {
    case (true, true): return end == start ? from : "\(from)–\(to)"
    case (true, false): return "\(from) →"
    case (false, true): return "→ \(to)"
    case (false, false): return "→ all day →"
    }
  }

  /// The title as the person's terminal shows it: what an app wrote is escaped
  /// (`TerminalText`) before the page adds its own colour.
  private func title(_ event: Event, _ colour: Bool) -> String {
    guard colour else { return TerminalText.escaped(event.shownTitle) }
    let title = TerminalText.escaped(event.title)
    return dot(event.calendarID) + (event.status == .canceled ? "\u{1B}[9;2m\(title)\u{1B}[0m" : title)
  }

  /// A dot in the calendar's colour (24-bit), for a terminal.
  private func dot(_ id: ObjectID?) -> String {
    guard let hex = id.flatMap({ calendars[$0]?.color }), hex.count == 7, hex.first == "#",
      let value = UInt32(hex.dropFirst(), radix: 16)
    else { return "● " }
    return "\u{1B}[38;2;\(value >> 16);\(value >> 8 & 0xFF);\(value & 0xFF)m●\u{1B}[0m "
  }

  /// Columns a title takes on a terminal: the page's own colour sequences take none (an app's text
  /// is escaped before them, so it holds none).
  private func visibleWidth(_ text: String) -> Int {
    var width = 0
    var escaped = false
    for character in text {
      if character == "\u{1B}" {
        escaped = true
      } else if escaped {
        if character == "m" { escaped = false }
      } else {
        width += 1
      }
    }
    return width
  }

  private func calendarTitle(_ id: ObjectID?) -> String { id.flatMap { calendars[$0]?.title } ?? "" }

  private func shownCalendar(_ id: ObjectID?) -> String { TerminalText.escaped(calendarTitle(id)) }

  static func clock(_ local: LocalDateTime) -> String {
    (local.hour < 10 ? "0" : "") + "\(local.hour):" + (local.minute < 10 ? "0" : "") + "\(local.minute)"
  }

  static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
  static let months = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
  ]

  /// `Friday 27 November 2026`.
  static func heading(_ date: LocalDateTime) -> String {
    "\(weekdays[date.weekday.rawValue]) \(date.day) \(months[date.month - 1]) \(date.year)"
  }

  // MARK: JSON

  /// The page as JSON: the window, the overdue reminders, and each day with its three lists (the
  /// events' and reminders' shapes of `events` and `reminder list`, plus their calendar's title).
  func json() -> JSONValue {
    func text(_ utc: Int64) -> JSONValue {
      .text(zone.localDateTime(atUTC: utc).map { RFC3339Time.text(for: $0, in: zone) })
    }
    func event(_ event: Event) -> JSONValue {
      .object(event.viewedFields(in: zone) + [("calendar", .string(calendarTitle(event.calendarID)))])
    }
    func reminder(_ reminder: Reminder) -> JSONValue {
      .object(reminder.jsonFields + [("calendar", .string(calendarTitle(reminder.calendarID)))])
    }
    return .object([
      ("from", text(window.start)), ("to", text(window.end)), ("zone", .string(zone.identifier)),
      ("overdue", .array(overdue.map { reminder($0.reminder) })),
      (
        "days",
        .array(
          days.map { day in
            .object([
              ("date", .string(RFC3339Time.dateText(for: day.date))),
              ("allDay", .array(day.allDay.map(event))),
              ("events", .array(day.timed.map { event($0.event) })),
              ("reminders", .array(day.reminders.map { reminder($0.reminder) })),
            ])
          })
      ),
    ])
  }
}
