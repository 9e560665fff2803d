import Foundation
import Kalends
import LMDB
import Testing

@Suite("Calendars")
struct CalendarTests {
  @Test func aSavedCalendarIsListedWithTheVersionOfItsRecord() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let saved = try events.save(EventCalendar(title: "Work"))
      #expect(saved.version == (try store.head().position))
      #expect(try events.calendars() == [saved])
      let record = try store.record(at: saved.version)
      #expect(record.kind == .calendarSaved)
      #expect(record.principal == .person)
      let fields = try record.payload.describe(as: record.kind)
      #expect(fields.first { $0.name == "id" }?.value == .uuid(saved.id.description.lowercased()))
    }
  }

  @Test func calendarsAreFilteredByTheEntityTypesTheyAllow() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let work = try events.save(EventCalendar(title: "Work"))
      let todo = try events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      #expect(try events.calendars(for: .events) == [work])
      #expect(try events.calendars(for: .reminders) == [todo])
      #expect(try events.calendars().map(\.title) == ["Todo", "Work"])
    }
  }

  @Test func savingAStaleCopyIsAConflictUnlessOverwriting() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let original = try events.save(EventCalendar(title: "Work"))
      var mine = original
      var theirs = original
      theirs.title = "Office"
      try events.save(theirs)
      mine.color = "#FF0000"
      let head = try store.head()
      #expect(
        throws: StoreError.calendar(
          .changedSinceFetched(original.id, fetched: original.version, current: head.position))
      ) {
        try events.save(mine)
      }
      #expect(try store.head() == head, "a refused save writes nothing")
      let forced = try events.save(mine, overwrite: true)
      #expect(try events.calendar(withID: original.id) == forced)
    }
  }

  @Test func aRemovedCalendarIsGoneAndCannotBeSavedAgain() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let saved = try events.save(EventCalendar(title: "Work"))
      try events.remove(saved)
      let removedAt = try store.head().position
      #expect(try events.calendar(withID: saved.id) == nil)
      #expect(try events.calendars().isEmpty)
      #expect(throws: StoreError.calendar(.itemRemoved(saved.id, at: removedAt))) { try events.save(saved) }
      #expect(throws: StoreError.calendar(.itemRemoved(saved.id, at: removedAt))) { try events.remove(saved) }
    }
  }

  @Test func aCalendarsEntityTypesCannotChange() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      var saved = try events.save(EventCalendar(title: "Work"))
      saved.allowedEntityTypes = .reminders
      #expect(throws: StoreError.calendar(.entityTypesCannotChange(saved.id))) { try events.save(saved) }
    }
  }

  @Test func removingAnUnknownCalendarIsNotFound() throws {
    try withStore { store, _ in
      let stranger = EventCalendar(title: "Nowhere")
      #expect(throws: StoreError.calendar(.calendarNotFound(stranger.id))) {
        try EventStore(store: store).remove(stranger)
      }
    }
  }

  @Test func objectIdentifiersParseTheirOwnTextInAnyCase() throws {
    let id = ObjectID.random()
    #expect(ObjectID(id.description) == id)
    #expect(ObjectID(id.description.lowercased()) == id)
    #expect(ObjectID(id.description.replacingOccurrences(of: "-", with: "")) == id)
    #expect(ObjectID("not-an-id") == nil)
    #expect(ObjectID(String(id.description.dropLast())) == nil)
  }
}
