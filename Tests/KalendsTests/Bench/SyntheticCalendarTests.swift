import Kalends
import KalendsSynthetic
import Testing

@Suite("Synthetic benchmark calendar")
struct SyntheticCalendarTests {
  @Test func theSameSeedBuildsTheSameIndexAndAnotherSeedDoesNot() throws {
    func index(seed: UInt64) throws -> ProjectionDigest? {
      try withStore { store, _ in
        try SyntheticCalendar(seed: seed, events: 300).load(into: EventStore(store: store))
        #expect(try store.head().position == LogPosition(UInt64(1 + SyntheticCalendar.calendarCount + 300)))
        return try store.projectionDigests()["range.instances"]
      }
    }
    let first = try index(seed: 7)
    #expect(try index(seed: 7) == first)
    #expect(try index(seed: 8) != first)
  }

  @Test func theDataHasTheAdvertisedShape() throws {
    var events: [Event] = []
    SyntheticCalendar(seed: 1, events: 5_000).forEachBatch { events += $0 }
    #expect(events.count == 5_000)
    let recurring = events.filter(\.isRecurring).count
    #expect((400...600).contains(recurring), "about 10 % recurring: \(recurring)")
    #expect(events.contains { $0.isAllDay } && events.contains { $0.timeZone == nil && !$0.isAllDay })
    #expect(Set(events.map(\.calendarID)).count == SyntheticCalendar.calendarCount)
    let first = SyntheticCalendar.firstDay
    #expect(events.allSatisfy { $0.start! >= first && $0.start!.year <= 2029 })
  }
}
