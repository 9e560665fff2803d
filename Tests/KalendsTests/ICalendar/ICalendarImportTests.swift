import Foundation
import Kalends
import Testing

@Suite("Importing iCalendar files into a store")
struct ICalendarImportTests {
  @Test func anImportIsOneBatchOfRecordsWithOneTimestamp() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let before = try store.head().position
      let result = try events.importICalendar(
        try ICalendarTesting.fixture("google"), into: .newCalendar(EventCalendar(title: "Team")))
      let records = try store.lastRecords(Int(result.lastPosition!.rawValue - before.rawValue))
      #expect(records.count == 6)  // the calendar and five series
      #expect(records.first?.header.kind == .calendarSaved)
      #expect(Set(records.map(\.header.timestamp)).count == 1)
      #expect(result.created == 5 && result.updated == 0 && result.unchanged == 0)
      #expect(try events.calendar(withID: result.calendarID)?.allowedEntityTypes == .events)
    }
  }

  @Test func importingTheSameFileAgainWritesNothingAndAHigherSequenceUpdates() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let text = try ICalendarTesting.fixture("google")
      let calendar = try ICalendarTesting.importNew(text, into: events)
      let standup = try #require(try events.events(inCalendar: calendar).first { $0.title == "Standup" })
      let head = try store.head()
      let again = try events.importICalendar(text, into: .calendar(calendar))
      #expect(again.unchanged == 5 && again.created == 0 && again.lastPosition == nil)
      #expect(try store.head() == head)

      var edited = String(decoding: text, as: UTF8.self)
      edited = edited.replacingOccurrences(
        of: "SEQUENCE:3\r\nSTATUS:CONFIRMED\r\nSUMMARY:Standup (late)",
        with: "SEQUENCE:4\r\nSTATUS:CONFIRMED\r\nSUMMARY:Standup (later)")
      let updated = try events.importICalendar(Array(edited.utf8), into: .calendar(calendar))
      #expect(updated.updated == 1 && updated.unchanged == 4)
      let changed = try #require(try events.event(withID: standup.id))
      #expect(changed.detachedOccurrences[local(2026, 3, 11, 9, 30)]?.title == "Standup (later)")
      #expect(changed.creationDate == standup.creationDate)

      let older = edited.replacingOccurrences(of: "SEQUENCE:4", with: "SEQUENCE:1").replacingOccurrences(
        of: "(later)", with: "(old)")
      #expect(try events.importICalendar(Array(older.utf8), into: .calendar(calendar)).updated == 0)
      #expect(
        try events.event(withID: standup.id)?.detachedOccurrences[local(2026, 3, 11, 9, 30)]?.title == "Standup (later)"
      )
    }
  }

  @Test func anImportedOverlappingSeriesCanBeEditedButNotMadeThroughTheAPI() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let result = try events.importICalendar(
        try ICalendarTesting.fixture("overlapping"), into: .source("test", new: EventCalendar(title: "Imported")))
      #expect(result.created == 3 && result.skipped == ["VJOURNAL": 2, "VFREEBUSY": 1])
      let series = try #require(
        try events.events(inCalendar: result.calendarID).first { $0.title.hasPrefix("On call") })
      // A change that keeps its rules and its duration is saved.
      var renamed = series
      renamed.title = "On call (renamed)"
      #expect(try events.save(renamed, span: .futureEvents).title == "On call (renamed)")
      // A new series of the same shape, or a change of the duration that still overlaps, is refused.
      var copy = Event(
        calendarID: result.calendarID, title: "Copy", start: series.start, end: series.end, timeZone: series.timeZone)
      copy.recurrenceRules = series.recurrenceRules
      #expect(throws: StoreError.calendar(.durationGreaterThanRecurrence)) { try events.save(copy, span: .thisEvent) }
      var longer = try #require(try events.event(withID: series.id))
      longer.end = LocalDateTime(wallClockSeconds: longer.end!.wallClockSeconds + 3_600)
      #expect(throws: StoreError.calendar(.durationGreaterThanRecurrence)) {
        try events.save(longer, span: .futureEvents)
      }
      // Importing again finds the calendar by its source.
      let again = try events.importICalendar(
        try ICalendarTesting.fixture("overlapping"), into: .source("test", new: EventCalendar(title: "Other")))
      #expect(again.calendarID == result.calendarID && !again.createdCalendar && again.lastPosition == nil)
    }
  }

  @Test func theSameUIDInAnotherCalendarIsAnotherCopy() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let text = try ICalendarTesting.fixture("outlook")
      let first = try ICalendarTesting.importNew(text, into: events)
      let second = try events.importICalendar(text, into: .newCalendar(EventCalendar(title: "Copy")))
      #expect(second.created == 5)
      #expect(try events.events(inCalendar: first).count == 5)
      // Removing an imported event frees its UID: the next import creates it again.
      let planning = try #require(try events.events(inCalendar: first).first { $0.title == "Weekly planning" })
      try events.remove(planning, span: .futureEvents)
      #expect(try events.importICalendar(text, into: .calendar(first)).created == 1)
      #expect(try store.verifyProjections().divergent.isEmpty)
    }
  }

  @Test func remindersGoIntoACalendarThatHoldsBoth() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let result = try events.importICalendar(
        try ICalendarTesting.fixture("apple"), into: .newCalendar(EventCalendar(title: "Home")))
      #expect(try events.calendar(withID: result.calendarID)?.allowedEntityTypes == [.events, .reminders])
      #expect(
        try events.reminders(inCalendars: [result.calendarID]).map(\.title).sorted() == ["Buy milk", "Renew passport"])
      let work = try events.save(EventCalendar(title: "Work"))
      let head = try store.head()
      #expect(throws: StoreError.calendar(.calendarDoesNotAllowReminders(work.id))) {
        try events.importICalendar(try ICalendarTesting.fixture("apple"), into: .calendar(work.id))
      }
      #expect(try store.head() == head)
    }
  }

  @Test func malformedFilesLeaveTheStoreUnchanged() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let calendar = try events.save(EventCalendar(title: "Target"))
      let good = try ICalendarTesting.fixture("google")
      let text = String(decoding: good, as: UTF8.self)
      var bad: [(String, [UInt8])] = []
      for cut in stride(from: 40, to: good.count - 2, by: 211) {
        bad.append(("cut at \(cut)", Array(good.prefix(cut))))
      }
      bad.append(("bad date", Array(text.replacingOccurrences(of: "20260317T130000Z", with: "20260230T130000Z").utf8)))
      bad.append(
        ("broken RRULE", Array(text.replacingOccurrences(of: "BYDAY=1MO;COUNT=12", with: "BYDAY=1MO;COUNT=").utf8)))
      bad.append(
        (
          "10 MB line",
          Array(
            text.replacingOccurrences(
              of: "SUMMARY:Book club", with: "SUMMARY:" + String(repeating: "x", count: 10 << 20)
            ).utf8)
        ))
      var latin1 = good
      latin1[latin1.firstRange(of: Array("Summer holidays".utf8))!.lowerBound] = 0xDC
      bad.append(("Latin-1 byte", latin1))
      var utf16: [UInt8] = [0xFF, 0xFE]
      for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
      bad.append(("UTF-16", utf16))
      bad.append(
        (
          "dates inverted",
          Array(text.replacingOccurrences(of: "DTEND:20260317T140000Z", with: "DTEND:20260317T120000Z").utf8)
        ))
      let head = try store.head()
      for (name, bytes) in bad {
        do {
          try events.importICalendar(bytes, into: .calendar(calendar.id))
          Issue.record("\(name): imported")
        } catch StoreError.iCalendar(let error) {
          #expect(error.line >= 1, "\(name): \(error)")
          #expect(error.description.contains(" — "), "\(name): \(error)")
        } catch {
          Issue.record("\(name): \(error)")
        }
        #expect(try store.head() == head, "\(name) changed the store")
      }
      #expect(try events.events(inCalendar: calendar.id).isEmpty)
    }
  }

  @Test func aReadOnlyCalendarRefusesTheWholeImport() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let calendar = try events.save(EventCalendar(title: "Holidays", allowsContentModifications: false))
      let head = try store.head()
      #expect(throws: StoreError.calendar(.calendarReadOnly(calendar.id))) {
        try events.importICalendar(try ICalendarTesting.fixture("google"), into: .calendar(calendar.id))
      }
      #expect(try store.head() == head)
    }
  }
}
