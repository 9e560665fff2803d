import Foundation
import Kalends
import KalendsTestSupport
import Testing

@Suite("Map growth by another process")
struct MapGrowthAcrossProcessesTests {
  /// A query streaming events here while another process grows the map past this process's: the
  /// query reads everything from its one snapshot, so it neither fails nor waits.
  @Test func aQueryGoesOnWhileAnotherProcessGrowsTheMap() throws {
    let directory = TemporaryDirectory("growth")
    let tiny = StoreOptions(initialMapSize: 64 << 10)
    let events = EventStore(store: try Store.create(at: directory.storePath, options: tiny))
    let calendar = try events.save(EventCalendar(title: "Work"))
    for day in 1...28 {
      var event = Event(
        calendarID: calendar.id, title: "series \(day)", start: LocalDateTime(year: 2026, month: 2, day: day, hour: 9),
        end: LocalDateTime(year: 2026, month: 2, day: day, hour: 10), timeZone: "Europe/Berlin")
      event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=4")]
      try events.save(event, span: .thisEvent)
    }
    let mapBefore = try events.store.status().mapSize
    let file = try ResourceFaultTests.calendarFile(events: 600, in: directory)
    var seen = 0
    let started = ContinuousClock.now
    let february = EventPredicate(
      start: LocalDateTime(year: 2026, month: 2, day: 1)!.wallClockSeconds,
      end: LocalDateTime(year: 2026, month: 3, day: 1)!.wallClockSeconds, calendars: [calendar.id])
    try events.enumerateEvents(matching: february) { _ in
      if seen == 0 {
        let grown = try CLI.run(["import", file, "--calendar", calendar.id.description, "--store", directory.storePath])
        #expect(grown.status == 0, "\(grown.stderr)")
      }
      seen += 1
      return true
    }
    #expect(seen == 70, "every February occurrence of the 28 series")
    #expect(ContinuousClock.now - started < .seconds(20))
    #expect(try events.store.head().position > 30, "the other process's import is seen after the query")
    #expect(try events.store.status().mapSize > mapBefore, "this process adopted the grown map")
  }
}
