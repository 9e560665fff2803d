import Kalends
import Testing

@Suite("Events: spans on recurring series")
struct SpanTests {
  /// Weekly on Sundays at 09:00 Berlin from March 29, 2026, five times.
  static let weekly = "FREQ=WEEKLY;COUNT=5"
  static let sundays = [
    local(2026, 3, 29, 9), local(2026, 4, 5, 9), local(2026, 4, 12, 9), local(2026, 4, 19, 9),
    local(2026, 4, 26, 9),
  ]

  @Test func savingOneOccurrenceDetachesItUnderItsOriginalDate() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      var occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      #expect(occurrence.occurrenceDate == Self.sundays[1] && !occurrence.isDetached)
      #expect(occurrence.start == Self.sundays[1] && occurrence.end == local(2026, 4, 5, 10))
      occurrence.title = "Moved standup"
      occurrence.start = local(2026, 4, 5, 11)
      occurrence.end = local(2026, 4, 5, 12)
      let before = try store.head().position
      let detached = try fixture.events.save(occurrence, span: .thisEvent)
      #expect(try store.head().position == before.next, "one record")
      #expect(detached.id == series.id && detached.occurrenceDate == Self.sundays[1] && detached.isDetached)

      let record = try #require(try fixture.lastRecords(1).first)
      let fields = try fixture.fields(record)
      #expect(fields["change"] == .unsigned(ItemChange.occurrenceDetached.rawValue))
      #expect(fields["occurrenceDate"] == .localDateTime("2026-04-05T09:00:00"))

      let fetched = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      #expect(fetched.title == "Moved standup" && fetched.start == local(2026, 4, 5, 11) && fetched.isDetached)
      #expect(try fixture.events.event(withID: series.id, occurrence: Self.sundays[2])?.title == "Standup")
      let stored = try #require(try fixture.events.event(withID: series.id))
      #expect(try occurrenceStarts(of: stored) == Self.sundays, "detaching keeps the series' occurrences")
      #expect(stored.version == detached.version)

      var again = fetched
      again.title = "Moved again"
      #expect(fetched.recurrenceRules == stored.recurrenceRules, "an occurrence reports its series' rules")
      try fixture.events.save(again, span: .thisEvent)
      #expect(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1])?.title == "Moved again")
    }
  }

  @Test func theSeriesItselfStandsForItsFirstOccurrence() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      series.title = "First one"
      let detached = try fixture.events.save(series, span: .thisEvent)
      #expect(detached.occurrenceDate == Self.sundays[0] && detached.isDetached)
      #expect(try fixture.events.event(withID: series.id)?.title == "Standup")
      #expect(try fixture.events.event(withID: series.id, occurrence: Self.sundays[0])?.title == "First one")
    }
  }

  @Test func oneOccurrenceCannotChangeTheRecurrenceOrTheCalendar() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let home = try fixture.events.save(EventCalendar(title: "Home"))
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      let occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      let head = try store.head()
      var ruleChanged = occurrence
      ruleChanged.recurrenceRules = [try rule("FREQ=DAILY;COUNT=2")]
      #expect(throws: StoreError.calendar(.invalidSpan("changing the recurrence of one occurrence is not possible"))) {
        try fixture.events.save(ruleChanged, span: .thisEvent)
      }
      var moved = occurrence
      moved.calendarID = home.id
      #expect(throws: StoreError.calendar(.invalidSpan("one occurrence cannot move to another calendar"))) {
        try fixture.events.save(moved, span: .thisEvent)
      }
      #expect(try store.head() == head)
    }
  }

  @Test func removingOneOccurrenceAddsAnExceptionDate() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      let occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[2]))
      try fixture.events.remove(occurrence, span: .thisEvent)
      let fields = try fixture.fields(try #require(try fixture.lastRecords(1).first))
      #expect(fields["change"] == .unsigned(ItemChange.occurrenceRemoved.rawValue))
      #expect(fields["occurrenceDate"] == .localDateTime("2026-04-12T09:00:00"))
      let stored = try #require(try fixture.events.event(withID: series.id))
      #expect(stored.exceptionDates == [Self.sundays[2]])
      #expect(try occurrenceStarts(of: stored) == [Self.sundays[0], Self.sundays[1], Self.sundays[3], Self.sundays[4]])
      #expect(try fixture.events.event(withID: series.id, occurrence: Self.sundays[2]) == nil)

      let head = try store.head()
      #expect(throws: StoreError.calendar(.occurrenceNotFound(series.id, Self.sundays[2]))) {
        try fixture.events.remove(occurrence, span: .thisEvent, overwrite: true)
      }
      #expect(throws: StoreError.calendar(.occurrenceNotFound(series.id, Self.sundays[2]))) {
        try fixture.events.save(occurrence, span: .thisEvent, overwrite: true)
      }
      #expect(try store.head() == head)
    }
  }

  @Test func removingADetachedOccurrenceDropsTheDetachment() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      var occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      occurrence.title = "Changed"
      let detached = try fixture.events.save(occurrence, span: .thisEvent)
      try fixture.events.remove(detached, span: .thisEvent)
      #expect(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]) == nil)
      #expect(try fixture.events.event(withID: series.id)?.exceptionDates == [Self.sundays[1]])
    }
  }

  @Test func aDetachedOccurrenceKeepsTheSeriesRecurrenceAndCanBeChangedAgain() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      var occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      occurrence.title = "Once"
      _ = try fixture.events.save(occurrence, span: .thisEvent)
      var detached = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      #expect(detached.isDetached && detached.recurrenceRules == series.recurrenceRules)
      let stored = try #require(try fixture.events.event(withID: series.id))
      #expect(detached.creationDate == series.creationDate && detached.lastModifiedDate == stored.lastModifiedDate)
      #expect(detached.lastModifiedDate != nil)
      detached.title = "Twice"
      let again = try fixture.events.save(detached, span: .thisEvent)
      #expect(again.title == "Twice" && again.isDetached && again.occurrenceDate == Self.sundays[1])

      var later = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      later.title = "From here on"
      let continued = try fixture.events.save(later, span: .futureEvents)
      #expect(continued.id != series.id && continued.recurrenceRules.first?.count == 4)
      #expect(try occurrenceStarts(of: continued) == Array(Self.sundays[1...]), "the split keeps recurring")
    }
  }

  @Test func savingFutureEventsSplitsTheSeriesInOneBatch() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      var late = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[3]))
      late.title = "Late one"
      _ = try fixture.events.save(late, span: .thisEvent)
      var third = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[2]))
      third.title = "Renamed"
      let before = try store.head().position
      let continued = try fixture.events.save(third, span: .futureEvents)
      #expect(try store.head().position == before.next.next, "two records")

      let records = try fixture.lastRecords(2)
      #expect(records[0].timestamp == records[1].timestamp, "one transaction")
      let split = try fixture.fields(records[0])
      #expect(split["id"] == .uuid(series.id.description.lowercased()))
      #expect(split["change"] == .unsigned(ItemChange.seriesSplit.rawValue))
      #expect(split["occurrenceDate"] == .localDateTime("2026-04-12T09:00:00"))
      let created = try fixture.fields(records[1])
      #expect(created["id"] == .uuid(continued.id.description.lowercased()))
      #expect(created["change"] == .unsigned(ItemChange.created.rawValue))
      #expect(created["splitFrom"] == .uuid(series.id.description.lowercased()))

      let ended = try #require(try fixture.events.event(withID: series.id))
      #expect(try occurrenceStarts(of: ended) == Array(Self.sundays[0..<2]))
      #expect(ended.recurrenceRules.first?.count == nil && ended.recurrenceRules.first?.until != nil)
      #expect(ended.title == "Standup")
      #expect(continued.id != series.id && continued.externalID != series.externalID)
      #expect(continued.title == "Renamed" && continued.start == Self.sundays[2])
      #expect(continued.recurrenceRules.first?.count == 3)
      #expect(try occurrenceStarts(of: continued) == Array(Self.sundays[2...]))
      #expect(
        try fixture.events.event(withID: continued.id, occurrence: Self.sundays[3])?.title == "Late one",
        "a detached occurrence after the split follows the new series")
      #expect(try fixture.events.events(inCalendar: fixture.calendar.id).map(\.id) == [series.id, continued.id])
    }
  }

  @Test func splittingAZonedSeriesEndsItAtTheRightInstantAcrossDST() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var daily = Event(
        calendarID: fixture.calendar.id, title: "Daily", start: local(2026, 3, 1, 9), end: local(2026, 3, 1, 9, 30),
        timeZone: "America/New_York")
      daily.recurrenceRules = [try rule("FREQ=DAILY")]
      let series = try fixture.events.save(daily, span: .thisEvent)
      let tenth = try #require(try fixture.events.event(withID: series.id, occurrence: local(2026, 3, 10, 9)))
      try fixture.events.remove(tenth, span: .futureEvents)
      let fields = try fixture.fields(try #require(try fixture.lastRecords(1).first))
      #expect(fields["change"] == .unsigned(ItemChange.futureOccurrencesRemoved.rawValue))
      let ended = try #require(try fixture.events.event(withID: series.id))
      // 09:00 EDT on March 10 is 13:00 UTC; UNTIL is one second earlier, in UTC.
      #expect(ended.recurrenceRules.first?.description == "FREQ=DAILY;UNTIL=20260310T125959Z")
      #expect(try occurrenceStarts(of: ended) == (1...9).map { local(2026, 3, $0, 9) })
    }
  }

  @Test func endingFloatingAndAllDaySeriesUsesTheirOwnKindOfUntil() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let floating = try fixture.events.save(
        try fixture.meeting("Floating", zone: nil, rrule: "FREQ=DAILY;COUNT=10"), span: .thisEvent)
      try fixture.events.remove(
        try #require(try fixture.events.event(withID: floating.id, occurrence: local(2026, 4, 2, 9))),
        span: .futureEvents)
      let endedFloating = try #require(try fixture.events.event(withID: floating.id))
      #expect(endedFloating.recurrenceRules.first?.description == "FREQ=DAILY;UNTIL=20260402T085959")
      #expect(try occurrenceStarts(of: endedFloating).count == 4)

      var holiday = Event(
        calendarID: fixture.calendar.id, title: "Holiday", start: local(2026, 1, 1), end: local(2026, 1, 2),
        timeZone: nil, isAllDay: true)
      holiday.recurrenceRules = [try rule("FREQ=YEARLY")]
      let yearly = try fixture.events.save(holiday, span: .thisEvent)
      var renamed = try #require(try fixture.events.event(withID: yearly.id, occurrence: local(2030, 1, 1)))
      renamed.title = "New Year"
      let continued = try fixture.events.save(renamed, span: .futureEvents)
      let endedYearly = try #require(try fixture.events.event(withID: yearly.id))
      #expect(endedYearly.recurrenceRules.first?.description == "FREQ=YEARLY;UNTIL=20291231")
      #expect(try occurrenceStarts(of: endedYearly) == (2026...2029).map { local($0, 1, 1) })
      #expect(continued.recurrenceRules.first?.description == "FREQ=YEARLY" && continued.isAllDay)
    }
  }

  @Test func futureEventsOnTheFirstOccurrenceChangesTheWholeSeries() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      try fixture.events.remove(
        try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1])), span: .thisEvent)
      var whole = try #require(try fixture.events.event(withID: series.id))
      whole.start = local(2026, 3, 29, 10)
      whole.end = local(2026, 3, 29, 11)
      let before = try store.head().position
      let saved = try fixture.events.save(whole, span: .futureEvents)
      #expect(try store.head().position == before.next)
      #expect(saved.id == series.id)
      let fields = try fixture.fields(try #require(try fixture.lastRecords(1).first))
      #expect(fields["change"] == .unsigned(ItemChange.modified.rawValue))
      #expect(saved.exceptionDates == [local(2026, 4, 5, 10)], "the exception moves with the series")
      #expect(
        try occurrenceStarts(of: saved)
          == [local(2026, 3, 29, 10), local(2026, 4, 12, 10), local(2026, 4, 19, 10), local(2026, 4, 26, 10)])
    }
  }

  @Test func removingFutureEventsFromTheFirstOccurrenceRemovesTheSeries() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      let first = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[0]))
      try fixture.events.remove(first, span: .futureEvents)
      #expect(try fixture.lastRecords(1).first?.kind == .eventRemoved)
      #expect(try fixture.events.event(withID: series.id) == nil)
    }
  }

  @Test func aStaleOccurrenceIsAConflict() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(try fixture.meeting(rrule: Self.weekly), span: .thisEvent)
      let occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[1]))
      var other = try #require(try fixture.events.event(withID: series.id, occurrence: Self.sundays[3]))
      other.title = "Elsewhere"
      let current = try fixture.events.save(other, span: .thisEvent)
      #expect(
        throws: StoreError.calendar(
          .changedSinceFetched(series.id, fetched: series.version, current: current.version))
      ) { try fixture.events.remove(occurrence, span: .thisEvent) }
    }
  }
}
