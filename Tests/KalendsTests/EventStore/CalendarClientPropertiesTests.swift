import Kalends
import Testing

/// A calendar's ``EventCalendar/clientProperties``: WebDAV's dead properties, kept as a client wrote
/// them, bounded, and part of the calendar's state in the log.
@Suite("Calendar client properties")
struct CalendarClientPropertiesTests {
  @Test func propertiesAreKeptAcrossSavesAndARebuild() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var calendar = EventCalendar(title: "Trips")
      calendar.clientProperties = [
        "{http://apple.com/ns/ical/}calendar-order": "12",
        "{urn:example}mine": #"x &amp; y<x:inner xmlns:x="urn:example">deep</x:inner>"#,
      ]
      calendar = try owner.save(calendar)
      // A change of something else keeps them; the owner's refresh of a stale copy too.
      calendar.title = "Journeys"
      calendar = try owner.save(calendar)
      #expect(try owner.calendar(withID: calendar.id)?.clientProperties["{urn:example}mine"]?.contains("deep") == true)
      _ = try store.rebuildProjections()
      #expect(try owner.calendar(withID: calendar.id)?.clientProperties.count == 2)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func tooManyTooLargeOrMisnamedPropertiesAreRefusedAndNothingIsWritten() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let head = try store.head().position
      var many = EventCalendar(title: "Many")
      for index in 0...EventCalendar.maximumClientProperties { many.clientProperties["{urn:x}p\(index)"] = "v" }
      var large = EventCalendar(title: "Large")
      large.clientProperties["{urn:x}big"] = String(repeating: "a", count: 64 * 1024 + 1)
      var misnamed = EventCalendar(title: "Misnamed")
      misnamed.clientProperties["plain"] = "v"
      var control = EventCalendar(title: "Control")
      control.clientProperties["{urn:x}p"] = "a\u{1}b"
      for calendar in [many, large, misnamed, control] {
        #expect(throws: StoreError.self) { try owner.save(calendar) }
      }
      #expect(try store.head().position == head)
    }
  }
}
