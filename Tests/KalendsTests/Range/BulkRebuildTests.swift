import Kalends
import Testing

@Suite("Rebuilds load the projections in bulk, byte for byte as record-by-record application")
struct BulkRebuildTests {
  /// A history that replaces, moves and removes items, removes a calendar holding some, detaches
  /// and excepts occurrences, shortens a long event and moves the horizon past open series.
  func writeHistory(_ fixture: EventFixture) throws {
    let events = fixture.events
    let home = try events.save(EventCalendar(title: "Home"))
    let trip = try events.save(EventCalendar(title: "Trip"))
    func event(
      _ title: String, _ calendar: EventCalendar, _ start: LocalDateTime, _ end: LocalDateTime,
      zone: String? = "Europe/Berlin", allDay: Bool = false, rrule: String? = nil
    ) throws -> Event {
      var event = Event(
        calendarID: calendar.id, title: title, start: start, end: end, timeZone: zone, isAllDay: allDay)
      if let rrule { event.recurrenceRules = [try rule(rrule)] }
      return try events.save(event, span: .futureEvents)
    }
    var long = try event("conference", fixture.calendar, local(2026, 4, 1, 9), local(2026, 4, 4, 17))
    long.end = local(2026, 4, 1, 10)
    long = try events.save(long, span: .thisEvent)
    var moving = try event("dentist", fixture.calendar, local(2026, 2, 2, 8), local(2026, 2, 2, 9))
    moving.calendarID = home.id
    moving.start = local(2026, 2, 3, 8)
    moving.end = local(2026, 2, 3, 8)
    moving = try events.save(moving, span: .thisEvent)
    let removed = try event("cancelled", home, local(2026, 5, 1), local(2026, 5, 2), zone: nil, allDay: true)
    try events.remove(removed, span: .thisEvent)
    _ = try event("holiday", home, local(2026, 8, 1), local(2026, 8, 22), zone: nil, allDay: true)
    _ = try event("floating", home, local(2026, 6, 1, 9), local(2026, 6, 1, 10), zone: nil)
    let weekly = try event(
      "weekly", fixture.calendar, local(2026, 1, 5, 18), local(2026, 1, 5, 19), zone: "America/New_York",
      rrule: "FREQ=WEEKLY;BYDAY=MO,TH")
    var moved = try #require(try events.event(withID: weekly.id, occurrence: local(2026, 1, 8, 18)))
    moved.start = local(2026, 1, 9, 7)
    moved.end = local(2026, 1, 9, 8)
    try events.save(moved, span: .thisEvent)
    let skipped = try #require(try events.event(withID: weekly.id, occurrence: local(2026, 1, 12, 18)))
    try events.remove(skipped, span: .thisEvent)
    let daily = try event(
      "daily", home, local(2026, 3, 1, 7), local(2026, 3, 1, 8), rrule: "FREQ=DAILY;UNTIL=20280301T000000Z")
    let later = try #require(try events.event(withID: daily.id, occurrence: local(2027, 3, 1, 7)))
    try events.save(later, span: .futureEvents)
    _ = try event(
      "monthly", trip, local(2026, 1, 30, 9), local(2026, 1, 30, 10), rrule: "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1")
    _ = try event("trip", trip, local(2026, 9, 1), local(2026, 9, 8), zone: "Asia/Tokyo")
    try events.remove(trip)
    _ = try event("far", fixture.calendar, local(2034, 6, 1, 9), local(2034, 6, 1, 10))
  }

  @Test func aRebuildLeavesTheBytesOfRecordByRecordApplication() throws {
    try withStore { store, _ in
      try writeHistory(try EventFixture(store))
      let inline = try store.projectionDigests()
      #expect((inline["range.instances"]?.entries ?? 0) > 500)
      #expect((inline["range.open"]?.entries ?? 0) > 0 && (inline["objects.byExternalID"]?.entries ?? 0) > 0)
      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == inline)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func anItemOwnsOneStateEntryAndItsKeysAreRecomputedToRemoveIt() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var event = try fixture.events.save(try fixture.meeting(rrule: "FREQ=DAILY;COUNT=40"), span: .futureEvents)
      let digests = try store.projectionDigests()
      #expect(digests["range.items"]?.entries == 1 && digests["range.instances"]?.entries == 40)
      event.recurrenceRules = []
      event = try fixture.events.save(event, span: .futureEvents)
      #expect(try store.projectionDigests()["range.instances"]?.entries == 1)
      try fixture.events.remove(event, span: .futureEvents)
      let after = try store.projectionDigests()
      #expect(after["range.items"]?.entries == 0 && after["range.instances"]?.entries == 0)
    }
  }
}
