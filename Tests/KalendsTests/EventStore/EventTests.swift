import Kalends
import KalendsTestSupport
import Testing

@Suite("Events: saving, validation, identity, conflicts")
struct EventTests {
  @Test func aNewEventIsOneCreatedRecordWithItsFullState() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var meeting = try fixture.meeting()
      meeting.location = "Room 4"
      meeting.alarms = [Alarm(relativeOffset: -600)]
      let saved = try fixture.events.save(meeting, span: .thisEvent)
      #expect(saved.version == (try store.head().position))
      #expect(saved.creationDate != nil && saved.lastModifiedDate == saved.creationDate)
      #expect(try fixture.events.event(withID: meeting.id) == saved)
      let record = try #require(try fixture.lastRecords(1).first)
      #expect(record.kind == .eventSaved)
      let fields = try fixture.fields(record)
      #expect(fields["id"] == .uuid(meeting.id.description.lowercased()))
      #expect(fields["calendarId"] == .uuid(fixture.calendar.id.description.lowercased()))
      #expect(fields["change"] == .unsigned(ItemChange.created.rawValue))
      #expect(fields["occurrenceDate"] == nil)
      guard case .message(let state) = fields["state"] else {
        Issue.record("no state message")
        return
      }
      let named = Dictionary(state.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
      #expect(named["title"] == .string("Standup"))
      #expect(named["start"] == .localDateTime("2026-03-29T09:00:00"))
      #expect(named["timeZone"] == .string("Europe/Berlin"))
      #expect(named["location"] == .string("Room 4"))
      #expect(named["alarm"] == .signed(-600))
    }
  }

  @Test func everyValidationErrorIsTypedAndWritesNothing() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let reminders = try fixture.events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      var readOnly = EventCalendar(title: "Holidays")
      readOnly.allowsContentModifications = false
      readOnly = try fixture.events.save(readOnly)
      let head = try store.head()

      func expectRefused(_ error: CalendarError, _ change: (inout Event) throws -> Void) throws {
        var event = try fixture.meeting()
        try change(&event)
        #expect(throws: StoreError.calendar(error)) { try fixture.events.save(event, span: .thisEvent) }
        #expect(try store.head() == head, "a refused save writes nothing (\(error))")
      }
      try expectRefused(.noCalendar) { $0.calendarID = nil }
      try expectRefused(.noStartDate) { $0.start = nil }
      try expectRefused(.noEndDate) { $0.end = nil }
      try expectRefused(.datesInverted) { $0.end = local(2026, 3, 29, 8) }
      try expectRefused(.calendarNotFound(readOnly.source.id)) { $0.calendarID = readOnly.source.id }
      try expectRefused(.calendarReadOnly(readOnly.id)) { $0.calendarID = readOnly.id }
      try expectRefused(.calendarDoesNotAllowEvents(reminders.id)) { $0.calendarID = reminders.id }
      try expectRefused(.invalidTimeZone("Mars/Olympus")) { $0.timeZone = "Mars/Olympus" }
      try expectRefused(.durationGreaterThanRecurrence) {
        $0.end = local(2026, 3, 31, 9)
        $0.recurrenceRules = [try rule("FREQ=DAILY")]
      }
      try expectRefused(
        .invalidRecurrenceRule("INTERVAL=0 is outside 1…1000000 — use a value in that range")
      ) {
        var daily = try rule("FREQ=DAILY")
        daily.interval = 0
        $0.recurrenceRules = [daily]
      }
      try expectRefused(.invalidText(field: "the title", reason: "is longer than 1 MiB")) {
        $0.title = String(repeating: "x", count: (1 << 20) + 1)
      }
    }
  }

  @Test func anInvalidRecurrenceRuleNamesTheOffendingPart() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var event = try fixture.meeting()
      event.isAllDay = true
      event.recurrenceRules = [try rule("FREQ=DAILY;BYHOUR=9")]
      #expect {
        try fixture.events.save(event, span: .thisEvent)
      } throws: { error in
        guard case .calendar(.invalidRecurrenceRule(let reason)) = error as? StoreError else { return false }
        return reason.contains("BYHOUR")
      }
    }
  }

  @Test func anAllDayEventIsSavedAsWholeFloatingDays() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var trip = Event(
        calendarID: fixture.calendar.id, title: "Trip", start: local(2026, 3, 29, 15), end: local(2026, 3, 31, 11),
        timeZone: "Europe/Berlin", isAllDay: true)
      trip = try fixture.events.save(trip, span: .thisEvent)
      #expect(trip.start == local(2026, 3, 29) && trip.end == local(2026, 4, 1) && trip.timeZone == nil)
      var day = Event(
        calendarID: fixture.calendar.id, title: "Day", start: local(2026, 5, 1), end: local(2026, 5, 1),
        timeZone: nil, isAllDay: true)
      day = try fixture.events.save(day, span: .thisEvent)
      #expect(day.end == local(2026, 5, 2), "an all-day event lasts at least one day")
    }
  }

  @Test func theItemIdentifierSurvivesAMoveToAnotherCalendar() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let home = try fixture.events.save(EventCalendar(title: "Home"))
      var event = try fixture.events.save(try fixture.meeting(), span: .thisEvent)
      let (id, externalID) = (event.id, event.externalID)
      event.calendarID = home.id
      event = try fixture.events.save(event, span: .thisEvent)
      #expect(event.id == id && event.externalID == externalID)
      #expect(try fixture.events.events(inCalendar: fixture.calendar.id).isEmpty)
      #expect(try fixture.events.events(inCalendar: home.id).map(\.id) == [id])
      let fields = try fixture.fields(try #require(try fixture.lastRecords(1).first))
      #expect(fields["change"] == .unsigned(ItemChange.modified.rawValue))
      #expect(fields["calendarId"] == .uuid(home.id.description.lowercased()))
    }
  }

  @Test func aStaleEventIsAConflictUnlessOverwriting() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let original = try fixture.events.save(try fixture.meeting(), span: .thisEvent)
      var theirs = original
      theirs.title = "Retro"
      let current = try fixture.events.save(theirs, span: .thisEvent)
      var mine = original
      mine.location = "Room 1"
      let head = try store.head()
      #expect(
        throws: StoreError.calendar(
          .changedSinceFetched(original.id, fetched: original.version, current: current.version))
      ) { try fixture.events.save(mine, span: .thisEvent) }
      #expect(
        throws: StoreError.calendar(
          .changedSinceFetched(original.id, fetched: original.version, current: current.version))
      ) { try fixture.events.remove(mine, span: .thisEvent) }
      #expect(try store.head() == head)
      let forced = try fixture.events.save(mine, span: .thisEvent, overwrite: true)
      #expect(try fixture.events.event(withID: original.id) == forced)
      #expect(forced.title == "Standup" && forced.creationDate == original.creationDate)
    }
  }

  @Test func aRemovedEventIsGoneAndSavingItAgainIsAnError() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let event = try fixture.events.save(try fixture.meeting(), span: .thisEvent)
      try fixture.events.remove(event, span: .thisEvent)
      let removed = try #require(try fixture.lastRecords(1).first)
      #expect(removed.kind == .eventRemoved)
      #expect(try fixture.fields(removed)["id"] == .uuid(event.id.description.lowercased()))
      #expect(try fixture.events.event(withID: event.id) == nil)
      #expect(try fixture.events.events(inCalendar: fixture.calendar.id).isEmpty)
      #expect(throws: StoreError.calendar(.itemRemoved(event.id, at: removed.position))) {
        try fixture.events.save(event, span: .thisEvent, overwrite: true)
      }
      let unsaved = try fixture.meeting()
      #expect(throws: StoreError.calendar(.itemNotFound(unsaved.id))) {
        try fixture.events.remove(unsaved, span: .thisEvent)
      }
    }
  }

  @Test func removingACalendarRemovesItsEvents() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let event = try fixture.events.save(try fixture.meeting(), span: .thisEvent)
      try fixture.events.remove(fixture.calendar)
      #expect(try fixture.events.event(withID: event.id) == nil)
      #expect(throws: StoreError.calendar(.calendarNotFound(fixture.calendar.id))) {
        try fixture.events.save(event, span: .thisEvent)
      }
    }
  }

  @Test func eventsSurviveReopeningAndARebuild() throws {
    let directory = TemporaryDirectory()
    let options = StoreOptions(durability: .noSync)
    var saved: [Event] = []
    do {
      let fixture = try EventFixture(try Store.create(at: directory.storePath, options: options))
      saved.append(try fixture.events.save(try fixture.meeting(rrule: "FREQ=WEEKLY;COUNT=5"), span: .thisEvent))
      var detached = try #require(try fixture.events.event(withID: saved[0].id, occurrence: local(2026, 4, 5, 9)))
      detached.title = "Moved"
      try fixture.events.save(detached, span: .thisEvent)
      saved[0] = try #require(try fixture.events.event(withID: saved[0].id))
    }
    let store = try Store.open(at: directory.storePath, options: options)
    let events = EventStore(store: store)
    #expect(try events.event(withID: saved[0].id) == saved[0])
    try store.rebuildProjections()
    #expect(try events.event(withID: saved[0].id) == saved[0])
    #expect(try events.event(withID: saved[0].id, occurrence: local(2026, 4, 5, 9))?.title == "Moved")
  }
}
