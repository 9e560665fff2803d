import Foundation
import Kalends
import Testing

/// An event's end is written back as it came (``Event/endProperty``): `DTEND`, `DURATION`, or
/// neither; a changed end is written as `DTEND`.
@Suite("iCalendar end properties")
struct ICalendarEndPropertyTests {
  static func file(_ lines: String) throws -> ICalendar {
    try ICalendar(
      parsing:
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:e\r\nDTSTAMP:20260101T000000Z\r\n"
        + lines + "SUMMARY:E\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
  }

  static func lines(_ file: ICalendar) -> [String] {
    file.serialized().components(separatedBy: "\r\n").filter { $0.hasPrefix("DTEND") || $0.hasPrefix("DURATION") }
  }

  @Test func theEndIsWrittenAsItCameAndThroughTheStore() throws {
    let duration = try Self.file("DTSTART;TZID=Europe/Berlin:20261025T010000\r\nDURATION:PT3H\r\n")
    // Across the change from summer time: three hours exactly, not a wall-clock difference.
    #expect(Self.lines(duration) == ["DURATION:PT3H"])
    #expect(duration.events[0].end == local(2026, 10, 25, 3))
    let none = try Self.file("DTSTART:20261201T090000Z\r\n")
    #expect(Self.lines(none) == [])
    let day = try Self.file("DTSTART;VALUE=DATE:20261201\r\nDURATION:P2D\r\n")
    #expect(Self.lines(day) == ["DURATION:P2D"])
    let end = try Self.file("DTSTART:20261201T090000Z\r\nDTEND:20261201T100000Z\r\n")
    #expect(Self.lines(end) == ["DTEND:20261201T100000Z"])

    try withStore { store, _ in
      let owner = EventStore(store: store)
      let calendar = try owner.save(EventCalendar(title: "Imported"))
      let saved = try owner.putCalendarObject(
        CalendarObject(uid: "e", events: none.events), inCalendar: calendar.id
      ).object
      #expect(Self.lines(saved.file) == [])
      // A changed end is no longer the one implied: it is written.
      var event = try #require(saved.events.first)
      event.end = local(2026, 12, 1, 10)
      event = try owner.save(event, span: .thisEvent)
      #expect(Self.lines(ICalendar(events: [event])) == ["DTEND:20261201T100000Z"])
    }
  }
}
