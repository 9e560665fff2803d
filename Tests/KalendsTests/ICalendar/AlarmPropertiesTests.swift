import Kalends
import Testing

/// What an alarm keeps of its `VALARM` (``Alarm/additionalProperties``): read, stored in the log,
/// rebuilt, written back; an alarm made here stays a plain display alarm.
@Suite("Alarm properties")
struct AlarmPropertiesTests {
  static let text = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:t", "BEGIN:VEVENT", "UID:a@example.com", "DTSTAMP:20260101T000000Z",
    "DTSTART:20270301T090000Z", "DTEND:20270301T100000Z", "SUMMARY:Standup", "BEGIN:VALARM", "ACTION:AUDIO",
    "TRIGGER:-PT5M", "ATTACH;FMTTYPE=audio/basic:https://example.com/a.au", "X-PROGRAM-ID:7", "END:VALARM",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Standup", "TRIGGER:-PT1M", "END:VALARM", "END:VEVENT",
    "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  @Test func keptThroughTheLogARebuildAndAnotherWriting() throws {
    let file = try ICalendar(parsing: Self.text)
    let alarms = try #require(file.events.first?.alarms)
    #expect(alarms.map(\.relativeOffset) == [-300, -60])
    #expect(
      alarms[0].additionalProperties == [
        "ACTION:AUDIO", "ATTACH;FMTTYPE=audio/basic:https://example.com/a.au", "X-PROGRAM-ID:7",
      ])
    // The display alarm describing its item is what the writer makes anyway: nothing to keep.
    #expect(alarms[1].additionalProperties.isEmpty)
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      var event = try #require(file.events.first)
      event.calendarID = work.id
      let saved = try owner.save(event, span: .thisEvent)
      _ = try store.rebuildProjections()
      #expect(try store.verifyProjections().isConsistent)
      let fetched = try #require(try owner.event(withID: saved.id))
      #expect(fetched.alarms == alarms)
      let written = ICalendar(events: [fetched]).serialized()
      #expect(written.contains("BEGIN:VALARM\r\nTRIGGER:-PT5M\r\nACTION:AUDIO\r\n"), "\(written)")
      #expect(!written.contains("DESCRIPTION:Standup\r\nTRIGGER:-PT5M"))
      #expect(try ICalendar(parsing: written).events.first?.alarms == alarms)
      // Too many lines, or a control character: refused, nothing written.
      let head = try store.head().position
      var crowded = fetched
      crowded.alarms[0].additionalProperties = (0...Alarm.maximumProperties).map { "X-P:\($0)" }
      #expect(throws: StoreError.self) { try owner.save(crowded, span: .thisEvent) }
      var broken = fetched
      broken.alarms[0].additionalProperties = ["X-P:a\u{1}b"]
      #expect(throws: StoreError.self) { try owner.save(broken, span: .thisEvent) }
      #expect(try store.head().position == head)
    }
  }
}
