import Foundation
import Kalends
import Testing

/// CalDAV's `expand` and `limit-recurrence-set` (RFC 4791 §9.6.5, §9.6.6) in the library:
/// ``ICalendar/serialized(expandingFrom:to:floatingIn:productID:stamp:)`` and
/// ``ICalendar/limitingRecurrenceSets(from:to:floatingIn:)``.
/// The DAV check (Tests/Oracles/dav_client_check.py) compares the server's expanded answers with
/// `recurring-ical-events`; these pin what the oracle does not look at.
@Suite("Expanding iCalendar instances")
struct ICalendarExpansionTests {
  /// UTC seconds of a UTC wall-clock time.
  static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0) -> Int64 {
    local(year, month, day, hour).wallClockSeconds
  }

  /// Mondays and Wednesdays at 09:00 in New York, the 2 December one excepted and the 7 December
  /// one moved to 14:00.
  static func standup() throws -> ICalendar {
    try ICalendar(
      parsing: """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:weekly@example.com\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Standup\r
        DTSTART;TZID=America/New_York:20261130T090000\r
        DTEND;TZID=America/New_York:20261130T091500\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10\r
        EXDATE;TZID=America/New_York:20261202T090000\r
        X-CLIENT-KEEP:kept\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@example.com\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID;TZID=America/New_York:20261207T090000\r
        SUMMARY:Standup (moved)\r
        DTSTART;TZID=America/New_York:20261207T140000\r
        DTEND;TZID=America/New_York:20261207T141500\r
        END:VEVENT\r
        END:VCALENDAR\r

        """)
  }

  @Test func aSeriesBecomesOneComponentPerInstanceInUTC() throws {
    let text = try Self.standup().serialized(expandingFrom: Self.utc(2026, 11, 30), to: Self.utc(2026, 12, 10))
    let lines = text.components(separatedBy: "\r\n")
    // 30 Nov, 7 Dec (moved) and 9 Dec; 2 Dec is an exception.
    #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 3)
    #expect(
      !text.contains("RRULE") && !text.contains("EXDATE") && !text.contains("VTIMEZONE") && !text.contains("TZID"))
    #expect(
      lines.filter { $0.hasPrefix("RECURRENCE-ID") } == [
        "RECURRENCE-ID:20261130T140000Z", "RECURRENCE-ID:20261207T140000Z", "RECURRENCE-ID:20261209T140000Z",
      ])
    #expect(lines.contains("DTSTART:20261207T190000Z") && lines.contains("SUMMARY:Standup (moved)"))
    #expect(lines.filter { $0 == "X-CLIENT-KEEP:kept" }.count == 2, "the series' properties go with its instances")
  }

  @Test func aMovedOccurrenceCountsWhereItWasMovedTo() throws {
    // 7 December 14:00–15:00 UTC holds the original 09:00 New York start, not the moved one (19:00 UTC).
    let before = try Self.standup().serialized(expandingFrom: Self.utc(2026, 12, 7, 14), to: Self.utc(2026, 12, 7, 15))
    #expect(!before.contains("BEGIN:VEVENT"))
    let after = try Self.standup().serialized(expandingFrom: Self.utc(2026, 12, 7, 19), to: Self.utc(2026, 12, 7, 20))
    #expect(after.components(separatedBy: "\r\n").filter { $0 == "BEGIN:VEVENT" }.count == 1)
  }

  @Test func floatingAndAllDayTimesStayAsTheyAre() throws {
    var yoga = Event(
      calendarID: nil, title: "Yoga", start: local(2026, 12, 4, 18), end: local(2026, 12, 4, 19), timeZone: nil)
    yoga.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")]
    let holiday = Event(
      calendarID: nil, title: "Holiday", start: local(2026, 12, 5), end: local(2026, 12, 7), timeZone: nil,
      isAllDay: true)
    let text = ICalendar(events: [yoga, holiday]).serialized(
      expandingFrom: Self.utc(2026, 12, 5), to: Self.utc(2026, 12, 6))
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines.filter { $0.hasPrefix("RECURRENCE-ID") } == ["RECURRENCE-ID:20261205T180000"])
    #expect(lines.contains("DTSTART:20261205T180000") && lines.contains("DTSTART;VALUE=DATE:20261205"))
  }

  @Test func aReminderIsDueWhenItsDueDateIsAfterTheStartAndNotAfterTheEnd() throws {
    var daily = Reminder(
      calendarID: nil, title: "Stretch", dueDate: local(2026, 12, 1, 9), timeZone: "Europe/Berlin")
    daily.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
    // Due 08:00 UTC each day from 1 December.
    let text = ICalendar(reminders: [daily]).serialized(
      expandingFrom: Self.utc(2026, 12, 2, 8), to: Self.utc(2026, 12, 4, 8))
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines.filter { $0.hasPrefix("DUE") } == ["DUE:20261203T080000Z", "DUE:20261204T080000Z"])
    #expect(
      lines.filter { $0.hasPrefix("RECURRENCE-ID") } == [
        "RECURRENCE-ID:20261203T080000Z", "RECURRENCE-ID:20261204T080000Z",
      ])
    #expect(daily.overlaps(from: Self.utc(2026, 12, 4, 7), to: Self.utc(2026, 12, 4, 8)))
    #expect(!daily.overlaps(from: Self.utc(2026, 12, 4, 8), to: Self.utc(2026, 12, 4, 9)))
    #expect(!daily.overlaps(from: .min, to: Self.utc(2026, 11, 30)))
    #expect(daily.overlaps(from: Self.utc(2030, 1, 1), to: .max))
    let once = Reminder(calendarID: nil, title: "Once", dueDate: local(2026, 12, 1, 9), timeZone: "Europe/Berlin")
    #expect(once.overlaps(from: Self.utc(2026, 12, 1), to: Self.utc(2026, 12, 1, 8)))
    #expect(!once.overlaps(from: Self.utc(2026, 12, 1, 8), to: Self.utc(2026, 12, 2)))
    #expect(Reminder(calendarID: nil, title: "Someday").overlaps(from: 0, to: 1))
    // Floating: due 09:00 in the zone given (CalDAV's calendar-timezone), 08:00 UTC in Berlin.
    let floating = Reminder(calendarID: nil, title: "Floating", dueDate: local(2026, 12, 1, 9))
    let berlin = try ZoneRules.named("Europe/Berlin")
    #expect(floating.overlaps(from: Self.utc(2026, 12, 1, 7), to: Self.utc(2026, 12, 1, 8), floatingIn: berlin))
    #expect(!floating.overlaps(from: Self.utc(2026, 12, 1, 8), to: Self.utc(2026, 12, 1, 9), floatingIn: berlin))
    #expect(floating.overlaps(from: Self.utc(2026, 12, 1, 8), to: Self.utc(2026, 12, 1, 9)))
  }

  /// RFC 4791 §9.9's table for a `VTODO`, row by row (CREATED aside: Kalends stamps it itself).
  @Test func aReminderFallsInARangeAsTheTableForVTODOSays() throws {
    let noon = Self.utc(2027, 1, 18, 12)
    func reminder(start: Int? = nil, due: Int? = nil, duration: String? = nil, completed: Bool = false) -> Reminder {
      var reminder = Reminder(calendarID: nil, title: "Task")
      reminder.timeZone = "UTC"
      reminder.startDate = start.map { local(2027, 1, 18, $0) }
      reminder.dueDate = due.map { local(2027, 1, 18, $0) }
      if let duration { reminder.additionalProperties = ["DURATION:" + duration] }
      if completed {
        reminder.isCompleted = true
        reminder.completionDate = Timestamp(rawValue: (noon + 3600) * 1_000_000)
      }
      return reminder
    }
    let hour: Int64 = 3600
    let cases: [(Reminder, Int64, Int64, Bool, String)] = [
      // DTSTART and DURATION (12:00–14:00): (start <= DTSTART+DURATION) AND (end > DTSTART OR end >= DTSTART+DURATION).
      (reminder(start: 12, duration: "PT2H"), noon + hour, noon + 3 * hour, true, "start inside"),
      (reminder(start: 12, duration: "PT2H"), noon - hour, noon + hour, true, "end inside"),
      (reminder(start: 12, duration: "PT2H"), noon + 2 * hour, noon + 3 * hour, true, "start at its end"),
      (reminder(start: 12, duration: "PT2H"), noon + 3 * hour, noon + 4 * hour, false, "after"),
      (reminder(start: 12, duration: "PT2H"), noon - 2 * hour, noon, false, "ends at its start"),
      // DTSTART and DUE (12:00, 14:00).
      (reminder(start: 12, due: 14), noon + hour, noon + 3 * hour, true, "overlapping"),
      (reminder(start: 12, due: 14), noon + 2 * hour, noon + 3 * hour, false, "from its due date"),
      (reminder(start: 12, due: 14), noon - 2 * hour, noon, false, "up to its start"),
      // DTSTART only: start <= DTSTART < end.
      (reminder(start: 12), noon, noon + hour, true, "from its start"),
      (reminder(start: 12), noon - hour, noon, false, "up to its start"),
      (reminder(start: 12), .min, noon - hour, false, "open start, before it"),
      // DUE only: start < DUE <= end.
      (reminder(due: 12), noon - hour, noon, true, "up to its due date"),
      (reminder(due: 12), noon, noon + hour, false, "from its due date"),
      // COMPLETED only (13:00): start <= COMPLETED <= end.
      (reminder(completed: true), noon, noon + hour, true, "up to its completion"),
      (reminder(completed: true), noon + 2 * hour, noon + 3 * hour, false, "after its completion"),
      // Nothing: always.
      (reminder(), 0, 1, true, "no dates"),
    ]
    for (task, from, to, expected, what) in cases {
      #expect(task.overlaps(from: from, to: to) == expected, "\(what)")
    }
  }

  @Test func anAlarmFiresAtItsOffsetFromEachInstance() throws {
    var file = try Self.standup()
    // 15 minutes before each standup (14:00 UTC), and before the moved one (19:00 UTC).
    file.events[0].alarms = [Alarm(relativeOffset: -900)]
    let series = file.events[0]
    #expect(series.firesAlarm(from: Self.utc(2026, 12, 9, 13), to: Self.utc(2026, 12, 9, 14)))
    #expect(!series.firesAlarm(from: Self.utc(2026, 12, 9, 14), to: Self.utc(2026, 12, 9, 15)))
    // The excepted 2 December fires nothing; the moved 7 December fires by its own alarms (none).
    #expect(!series.firesAlarm(from: Self.utc(2026, 12, 2), to: Self.utc(2026, 12, 3)))
    #expect(!series.firesAlarm(from: Self.utc(2026, 12, 7), to: Self.utc(2026, 12, 8)))
    var due = Reminder(calendarID: nil, title: "Pay", dueDate: local(2026, 12, 1, 9), timeZone: "Europe/Berlin")
    due.alarms = [Alarm(relativeOffset: -86_400)]
    #expect(due.firesAlarm(from: Self.utc(2026, 11, 30, 8), to: Self.utc(2026, 11, 30, 9)))
    #expect(!due.firesAlarm(from: Self.utc(2026, 12, 1, 8), to: Self.utc(2026, 12, 1, 9)))
  }

  @Test func anExpansionIsCountedBeforeItIsBuilt() throws {
    let standup = try Self.standup()
    let window = (Self.utc(2026, 11, 30), Self.utc(2026, 12, 10))
    #expect(standup.expandedInstanceCount(from: window.0, to: window.1, limit: 100) == 3)
    // An unending series over a millennium stops at the limit, without building its instances.
    var daily = Event(
      calendarID: nil, title: "Daily", start: local(2026, 1, 1, 9), end: local(2026, 1, 1, 10), timeZone: nil)
    daily.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=DAILY")]
    let millennium = ICalendar(events: [daily])
    #expect(millennium.expandedInstanceCount(from: Self.utc(2026, 1, 1), to: Self.utc(3026, 1, 1), limit: 1000) == 1001)
  }

  @Test func aCalendarTimezoneNamesTheZoneOfFloatingTimes() throws {
    func text(_ tzid: String, _ offset: String, _ lineEnd: String = "\r\n") -> String {
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN", "BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD",
        "DTSTART:19700101T000000", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE",
        "END:VCALENDAR",
      ].joined(separator: lineEnd) + lineEnd
    }
    #expect(ICalendar.zone(describedBy: text("Asia/Tokyo", "+0900"))?.identifier == "Asia/Tokyo")
    // Line ends as an XML parser leaves them.
    #expect(ICalendar.zone(describedBy: text("Asia/Tokyo", "+0900", "\n"))?.identifier == "Asia/Tokyo")
    // A name of its own: the zone whose offsets are the definition's.
    #expect(ICalendar.zone(describedBy: text("Tokyo Standard Time", "+0900")) != nil)
    #expect(ICalendar.zone(describedBy: text("Nowhere", "+0917")) == nil)
    #expect(ICalendar.zone(describedBy: "not a calendar") == nil)
    #expect(ICalendar.zone(describedBy: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n") == nil)
  }

  /// Floating times fall in the zone a calendar or a request names: Yoga at 18:00 floating is
  /// 23:00 UTC in New York, so a window of 23:00–24:00 UTC holds it there and not in UTC.
  @Test func floatingTimesFallInTheZoneGiven() throws {
    var yoga = Event(
      calendarID: nil, title: "Yoga", start: local(2026, 12, 4, 18), end: local(2026, 12, 4, 19), timeZone: nil)
    yoga.alarms = [Alarm(relativeOffset: -1_800)]
    let newYork = try ZoneRules.named("America/New_York")
    let file = ICalendar(events: [yoga])
    let (from, to) = (Self.utc(2026, 12, 4, 23), Self.utc(2026, 12, 5))
    #expect(!file.serialized(expandingFrom: from, to: to).contains("BEGIN:VEVENT"))
    #expect(file.serialized(expandingFrom: from, to: to, floatingIn: newYork).contains("DTSTART:20261204T180000"))
    #expect(file.expandedInstanceCount(from: from, to: to, floatingIn: newYork, limit: 10) == 1)
    // Its alarm, half an hour before, fires at 22:30 UTC in New York and at 17:30 UTC in UTC.
    let alarmWindow = (Self.utc(2026, 12, 4, 22), Self.utc(2026, 12, 4, 23))
    #expect(yoga.firesAlarm(from: alarmWindow.0, to: alarmWindow.1, floatingIn: newYork))
    #expect(!yoga.firesAlarm(from: alarmWindow.0, to: alarmWindow.1))
  }

  /// `limit-recurrence-set`: the series whole, its moved occurrence only where it was or is.
  @Test func aLimitedSetKeepsTheSeriesAndOnlyTheOccurrencesOfItsWindow() throws {
    func overrides(_ from: Int64, _ to: Int64) throws -> [String] {
      let text = try Self.standup().limitingRecurrenceSets(from: from, to: to).serialized()
      #expect(text.contains("RRULE:FREQ=WEEKLY") && text.contains("EXDATE"), "the series whole")
      return text.components(separatedBy: "\r\n").filter { $0.hasPrefix("RECURRENCE-ID") }
    }
    #expect(try overrides(Self.utc(2026, 12, 14), Self.utc(2026, 12, 21)).isEmpty)
    // Where it was: 09:00–09:15 New York (14:00Z); where it is: 14:00 New York (19:00Z).
    #expect(try overrides(Self.utc(2026, 12, 7, 14), Self.utc(2026, 12, 7, 15)).count == 1)
    #expect(try overrides(Self.utc(2026, 12, 7, 19), Self.utc(2026, 12, 7, 20)).count == 1)
    #expect(try overrides(Self.utc(2026, 12, 7, 15), Self.utc(2026, 12, 7, 19)).isEmpty)
  }
}
