import Foundation
import Kalends
import Testing

@Suite("Exporting iCalendar files")
struct ICalendarExportTests {
  /// A store with events in several zones, floating and all-day, and a reminder.
  private func sample(_ store: Store) throws -> (EventStore, EventCalendar) {
    let events = EventStore(store: store)
    let calendar = try events.save(EventCalendar(title: "Mixed", allowedEntityTypes: [.events, .reminders]))
    func add(_ title: String, _ zone: String?, _ start: LocalDateTime, allDay: Bool = false, rule: String? = nil) throws
    {
      var event = Event(
        calendarID: calendar.id, title: title, start: start,
        end: LocalDateTime(wallClockSeconds: start.wallClockSeconds + (allDay ? 86_400 : 3600)), timeZone: zone,
        isAllDay: allDay)
      if let rule { event.recurrenceRules = [try RecurrenceRule(parsing: rule)] }
      try events.save(event, span: .thisEvent)
    }
    try add(
      "Ünïcødé title that is long enough to be folded — 日本語のタイトル 🎉🎉🎉, with; escapes\\ and\nlines",
      "Europe/Berlin", local(2026, 3, 2, 9), rule: "FREQ=WEEKLY;UNTIL=20260525T090000")
    try add("New York", "America/New_York", local(2026, 11, 1, 1, 30))
    try add("Kolkata", "Asia/Kolkata", local(2026, 6, 1, 9))
    try add("UTC", "UTC", local(2026, 6, 1, 9))
    try add("Floating", nil, local(2026, 6, 1, 9))
    try add("Holiday", nil, local(2026, 8, 1), allDay: true)
    var reminder = Reminder(
      calendarID: calendar.id, title: "Call Tokyo", dueDate: local(2026, 7, 1, 9), timeZone: "Asia/Tokyo")
    reminder.priority = 5
    try events.save(reminder)
    return (events, calendar)
  }

  @Test func linesEndInCRLFAndFoldAt75OctetsWithoutSplittingACharacter() throws {
    try withStore { store, _ in
      let (events, calendar) = try sample(store)
      let bytes = Array(try events.exportICalendar(calendars: [calendar.id]).serialized().utf8)
      #expect(bytes.suffix(2) == [13, 10])
      var folded = 0
      for line in bytes.split(separator: 10, omittingEmptySubsequences: false).dropLast() {
        #expect(line.last == 13, "a line does not end in CRLF")
        #expect(line.count - 1 <= 75, "a line of \(line.count - 1) octets")
        #expect(String(validating: line, as: UTF8.self) != nil, "a fold splits a UTF-8 sequence")
        if line.first == 32 { folded += 1 }
      }
      #expect(folded > 0)
      let back = try ICalendar(parsing: bytes)
      #expect(Set(back.events.map(\.title)) == Set(try events.events(inCalendar: calendar.id).map(\.title)))
    }
  }

  @Test func everyZoneUsedHasAVTimeZoneThatDescribesIt() throws {
    try withStore { store, _ in
      let (events, calendar) = try sample(store)
      let text = try events.exportICalendar(calendars: [calendar.id]).serialized()
      let tzids = text.split(separator: "\r\n").filter { $0.hasPrefix("TZID:") }.map { String($0.dropFirst(5)) }
      #expect(tzids.sorted() == ["America/New_York", "Asia/Kolkata", "Asia/Tokyo", "Europe/Berlin"])
      // Renamed, the zones are no longer IANA names: the import must honour the VTIMEZONEs themselves,
      // and they must describe the zones well enough to give every event its instant.
      var renamed = text
      for tzid in tzids {
        renamed = renamed.replacingOccurrences(
          of: tzid, with: "Custom " + tzid.replacingOccurrences(of: "/", with: " "))
      }
      let original = try ICalendar(parsing: text)
      let custom = try ICalendar(parsing: renamed)
      #expect(!renamed.contains("Europe/Berlin"))
      func instants(_ file: ICalendar) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for event in file.events {
          let zone = try event.timeZone.map { try ZoneRules.named($0) } ?? .utc
          result[event.title] = zone.resolve(event.start!)
        }
        for reminder in file.reminders {
          result[reminder.title] = try (reminder.timeZone.map { try ZoneRules.named($0) } ?? .utc).resolve(
            reminder.dueDate!)
        }
        return result
      }
      #expect(try instants(custom) == instants(original))
      #expect(original.events.first { $0.title == "New York" }?.timeZone == "America/New_York")
    }
  }

  @Test func untilIsWrittenInTheFormItsStartRequires() throws {
    try withStore { store, _ in
      let (events, calendar) = try sample(store)
      let text = try events.exportICalendar(calendars: [calendar.id]).serialized()
      // Saved with a floating UNTIL, a zoned series is exported with UTC UNTIL (09:00 Berlin = 07:00Z).
      #expect(text.contains("RRULE:FREQ=WEEKLY;UNTIL=20260525T070000Z\r\n"))
    }
  }

  @Test func aWindowExportsTheSeriesThatOverlapItAndTheRemindersDueInIt() throws {
    try withStore { store, _ in
      let (events, calendar) = try sample(store)
      let june = try ZoneRules.named("UTC").resolve(local(2026, 6, 1))
      let file = try events.exportICalendar(calendars: [calendar.id], from: june, to: june + 86_400)
      #expect(Set(file.events.map(\.title)) == ["Kolkata", "UTC", "Floating"])
      #expect(file.reminders.isEmpty)
      let july = try events.exportICalendar(from: june + 30 * 86_400, to: june + 31 * 86_400)
      #expect(july.reminders.map(\.title) == ["Call Tokyo"] && july.events.isEmpty)
    }
  }
}
