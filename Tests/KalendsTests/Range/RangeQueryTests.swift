import Kalends
import Testing

/// UTC seconds of a wall-clock time read as UTC.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
  local(year, month, day, hour, minute).wallClockSeconds
}

@Suite("Range queries: overlap rules and edges")
struct RangeQueryTests {
  /// Saves a single event in `fixture`'s calendar.
  @discardableResult
  func save(
    _ fixture: EventFixture, _ title: String, _ start: LocalDateTime, _ end: LocalDateTime, zone: String? = "UTC",
    allDay: Bool = false, rrule: String? = nil
  ) throws -> Event {
    var event = Event(
      calendarID: fixture.calendar.id, title: title, start: start, end: end, timeZone: zone, isAllDay: allDay)
    if let rrule { event.recurrenceRules = [try rule(rrule)] }
    return try fixture.events.save(event, span: .thisEvent)
  }

  func titles(_ fixture: EventFixture, _ from: Int64, _ to: Int64, zone: String = "UTC") throws -> [String] {
    try fixture.events.events(
      matching: EventPredicate(start: from, end: to, viewerZone: try ZoneRules.named(zone))
    ).map(\.title)
  }

  @Test func overlapFollowsRFC4791AtEveryEdge() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      try save(fixture, "before", local(2026, 5, 1, 8), local(2026, 5, 1, 9))
      try save(fixture, "zero at start", local(2026, 5, 1, 9), local(2026, 5, 1, 9))
      try save(fixture, "inside", local(2026, 5, 1, 9, 30), local(2026, 5, 1, 9, 45))
      try save(fixture, "running in", local(2026, 5, 1, 8, 30), local(2026, 5, 1, 9, 1))
      try save(fixture, "zero at end", local(2026, 5, 1, 10), local(2026, 5, 1, 10))
      try save(fixture, "starts at end", local(2026, 5, 1, 10), local(2026, 5, 1, 11))
      try save(fixture, "covering", local(2026, 4, 1), local(2026, 6, 1))
      let found = try titles(fixture, utc(2026, 5, 1, 9), utc(2026, 5, 1, 10))
      #expect(found == ["covering", "running in", "zero at start", "inside"])
      #expect(try titles(fixture, utc(2026, 5, 1, 9), utc(2026, 5, 1, 9)).isEmpty, "an empty window")
    }
  }

  @Test func floatingAndAllDayEventsArePlacedInTheViewersZone() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      try save(fixture, "floating", local(2026, 7, 1, 9), local(2026, 7, 1, 10), zone: nil)
      try save(fixture, "all day", local(2026, 7, 2), local(2026, 7, 3), zone: nil, allDay: true)
      #expect(try titles(fixture, utc(2026, 7, 1, 9), utc(2026, 7, 1, 10)) == ["floating"])
      // 09:00 in Tokyo is 00:00 UTC.
      #expect(try titles(fixture, utc(2026, 7, 1, 0), utc(2026, 7, 1, 1), zone: "Asia/Tokyo") == ["floating"])
      #expect(try titles(fixture, utc(2026, 7, 1, 9), utc(2026, 7, 1, 10), zone: "Asia/Tokyo").isEmpty)
      // July 2 in New York is [04:00Z July 2, 04:00Z July 3).
      #expect(try titles(fixture, utc(2026, 7, 3, 3), utc(2026, 7, 3, 4), zone: "America/New_York") == ["all day"])
      #expect(try titles(fixture, utc(2026, 7, 2, 3), utc(2026, 7, 2, 4), zone: "America/New_York").isEmpty)
      let instance = try #require(
        try fixture.events.instances(
          matching: EventPredicate(
            start: utc(2026, 7, 2), end: utc(2026, 7, 3), viewerZone: try ZoneRules.named("America/New_York"))
        ).first)
      #expect(instance.isAllDay && instance.start == utc(2026, 7, 2, 4) && instance.end == utc(2026, 7, 3, 4))
    }
  }

  @Test func aDetachedOccurrenceIsFoundWhereItMovedNotWhereItWas() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try save(
        fixture, "daily", local(2026, 9, 1, 9), local(2026, 9, 1, 10), zone: "Europe/Berlin", rrule: "FREQ=DAILY")
      var fifth = try #require(try fixture.events.event(withID: series.id, occurrence: local(2026, 9, 5, 9)))
      fifth.title = "moved"
      fifth.start = local(2026, 9, 20, 15)
      fifth.end = local(2026, 9, 20, 16)
      try fixture.events.save(fifth, span: .thisEvent)
      let original = try fixture.events.events(
        matching: EventPredicate(start: utc(2026, 9, 5), end: utc(2026, 9, 6)))
      #expect(original.isEmpty, "the original slot is empty: \(original.map(\.title))")
      let moved = try fixture.events.events(matching: EventPredicate(start: utc(2026, 9, 20), end: utc(2026, 9, 21)))
      #expect(moved.map(\.title) == ["daily", "moved"])
      #expect(moved[1].occurrenceDate == local(2026, 9, 5, 9) && moved[1].isDetached && moved[1].id == series.id)
      #expect(moved[0].occurrenceDate == local(2026, 9, 20, 9) && !moved[0].isDetached)
    }
  }

  @Test func anUnboundedSeriesIsFoundFiftyYearsAhead() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try save(
        fixture, "weekly", local(2026, 1, 5, 18), local(2026, 1, 5, 19), zone: "America/New_York",
        rrule: "FREQ=WEEKLY;BYDAY=MO")
      let found = try fixture.events.instances(matching: EventPredicate(start: utc(2076, 6, 1), end: utc(2076, 6, 8)))
      // June 1, 2076 is a Monday; 18:00 EDT is 22:00 UTC.
      #expect(found.map(\.occurrenceDate) == [local(2076, 6, 1, 18)])
      #expect(found.first?.start == utc(2076, 6, 1, 22) && found.first?.id == series.id)
      let decade = try fixture.events.instances(matching: EventPredicate(start: utc(2070, 1, 1), end: utc(2080, 1, 1)))
      let mondays = stride(from: utc(2070, 1, 1), to: utc(2080, 1, 1), by: 86_400).filter {
        LocalDateTime(wallClockSeconds: $0)?.weekday == .monday
      }
      #expect(decade.count == mondays.count)
      #expect(zip(decade, decade.dropFirst()).allSatisfy { $0.start < $1.start })
    }
  }

  @Test func movingTheHorizonMaterialisesOpenSeriesWithoutChangingAnswers() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      try save(
        fixture, "weekly", local(2026, 1, 5, 18), local(2026, 1, 5, 19), zone: "America/New_York",
        rrule: "FREQ=WEEKLY;BYDAY=MO")
      let predicate = EventPredicate(start: utc(2033, 3, 1), end: utc(2033, 4, 1))
      let lazily = try fixture.events.instances(matching: predicate)
      #expect(lazily.count == 4)
      let before = try store.indexedInstanceCount()
      try save(fixture, "far", local(2033, 6, 1, 9), local(2033, 6, 1, 10))
      let after = try store.indexedInstanceCount()
      #expect(after > before + 52, "the open series was materialised up to the new horizon")
      #expect(try fixture.events.instances(matching: predicate) == lazily)
    }
  }

  @Test func aLongEventDoesNotHideAndIsFoundMidway() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      try save(fixture, "sabbatical", local(2026, 1, 1), local(2026, 7, 1))
      try save(fixture, "meeting", local(2026, 3, 2, 10), local(2026, 3, 2, 11))
      #expect(try titles(fixture, utc(2026, 3, 2), utc(2026, 3, 3)) == ["sabbatical", "meeting"])
      #expect(try titles(fixture, utc(2026, 7, 1), utc(2026, 7, 2)).isEmpty)
    }
  }

  @Test func queriesFilterByCalendarAndFollowMovesAndRemovals() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let home = try fixture.events.save(EventCalendar(title: "Home"))
      var event = try save(fixture, "dentist", local(2026, 2, 2, 8), local(2026, 2, 2, 9))
      let window = (utc(2026, 2, 2), utc(2026, 2, 3))
      func found(_ calendars: [ObjectID]) throws -> [ObjectID] {
        try fixture.events.instances(
          matching: EventPredicate(start: window.0, end: window.1, calendars: calendars)
        ).map(\.id)
      }
      #expect(try found([fixture.calendar.id]) == [event.id] && found([home.id]).isEmpty)
      event.calendarID = home.id
      event = try fixture.events.save(event, span: .thisEvent)
      #expect(try found([fixture.calendar.id]).isEmpty && found([home.id]) == [event.id] && found([]) == [event.id])
      try fixture.events.remove(event, span: .thisEvent)
      #expect(try found([]).isEmpty)
      try save(fixture, "other", local(2026, 2, 2, 8), local(2026, 2, 2, 9))
      try fixture.events.remove(fixture.calendar)
      #expect(try found([fixture.calendar.id]).isEmpty)
    }
  }

  @Test func enumerationStreamsInOrderAndCanStop() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      try save(
        fixture, "daily", local(2026, 1, 1, 9), local(2026, 1, 1, 10), zone: "Europe/Paris", rrule: "FREQ=DAILY")
      try save(
        fixture, "floating daily", local(2026, 1, 1, 9, 30), local(2026, 1, 1, 10), zone: nil, rrule: "FREQ=DAILY")
      let predicate = EventPredicate(start: utc(2026, 1, 1), end: utc(2026, 3, 1))
      var streamed: [EventInstance] = []
      try fixture.events.enumerateInstances(matching: predicate) { instance in
        streamed.append(instance)
        return true
      }
      #expect(streamed.count == 2 * 59)
      #expect(streamed == (try fixture.events.instances(matching: predicate)))
      #expect(zip(streamed, streamed.dropFirst()).allSatisfy { $0.start <= $1.start })
      var first: [EventInstance] = []
      try fixture.events.enumerateInstances(matching: predicate) { instance in
        first.append(instance)
        return first.count < 3
      }
      #expect(first == Array(streamed.prefix(3)))
    }
  }

  @Test func aRebuildYieldsByteIdenticalProjections() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try save(
        fixture, "weekly", local(2026, 1, 5, 18), local(2026, 1, 5, 19), zone: "America/New_York",
        rrule: "FREQ=WEEKLY;BYDAY=MO,TH")
      var moved = try #require(try fixture.events.event(withID: series.id, occurrence: local(2026, 1, 8, 18)))
      moved.title = "moved"
      try fixture.events.save(moved, span: .thisEvent)
      try save(fixture, "floating", local(2026, 7, 1, 9), local(2026, 7, 1, 10), zone: nil)
      try save(fixture, "long", local(2026, 1, 1), local(2026, 3, 1))
      let before = try store.projectionDigests()
      #expect(try store.indexedInstanceCount() > 100)
      try store.rebuildProjections()
      #expect(try store.projectionDigests() == before)
    }
  }
}
