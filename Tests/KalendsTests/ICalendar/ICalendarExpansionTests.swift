import Foundation
import Kalends
import Testing

/// CalDAV's `expand` (RFC 4791 §9.6.5) in the library: ``ICalendar/serialized(expandingFrom:to:productID:stamp:)``.
/// The DAV check (tools/dav_client_check.py) compares the server's expanded answers with
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
    #expect(daily.isDue(after: Self.utc(2026, 12, 4, 7), through: Self.utc(2026, 12, 4, 8)))
    #expect(!daily.isDue(after: Self.utc(2026, 12, 4, 8), through: Self.utc(2026, 12, 4, 9)))
    #expect(!daily.isDue(after: .min, through: Self.utc(2026, 11, 30)))
    #expect(daily.isDue(after: Self.utc(2030, 1, 1), through: .max))
    let once = Reminder(calendarID: nil, title: "Once", dueDate: local(2026, 12, 1, 9), timeZone: "Europe/Berlin")
    #expect(once.isDue(after: Self.utc(2026, 12, 1), through: Self.utc(2026, 12, 1, 8)))
    #expect(!once.isDue(after: Self.utc(2026, 12, 1, 8), through: Self.utc(2026, 12, 2)))
    #expect(Reminder(calendarID: nil, title: "Someday").isDue(after: 0, through: 1))
  }
}
