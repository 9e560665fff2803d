import Kalends
import Testing

/// Calendar objects stored under a name that is not their `UID`
/// (``EventStore/putCalendarObject(_:inCalendar:condition:)``): vdirsyncer, Thunderbird and DAVx5
/// name resources by random identifiers, and a `UID` such as `x@example.com` cannot be one.
@Suite("Calendar object names")
struct CalendarObjectNameTests {
  /// An object of one event with `uid`, stored under `name`.
  static func object(_ uid: String, named name: String, in calendar: EventCalendar, title: String = "Dentist")
    -> CalendarObject
  {
    var event = Event(
      calendarID: calendar.id, title: title, start: local(2026, 5, 4, 10), end: local(2026, 5, 4, 11),
      timeZone: "Europe/Berlin")
    event.externalID = uid
    return CalendarObject(uid: uid, name: name, events: [event])
  }

  @Test func anObjectIsFoundByTheNameItWasStoredUnderAndNotByItsUID() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let (stored, created) = try owner.putCalendarObject(
        Self.object("dentist@example.com", named: "3f1c-random", in: work), inCalendar: work.id)
      #expect(created && stored.name == "3f1c-random")
      #expect(stored.events.first?.resourceName == "3f1c-random")
      let found = try #require(try owner.calendarObject(named: "3f1c-random", inCalendar: work.id))
      #expect(found.uid == "dentist@example.com" && found.name == "3f1c-random")
      #expect(try owner.calendarObject(named: "dentist@example.com", inCalendar: work.id) == nil)
      #expect(try owner.calendarObjects(inCalendar: work.id)?.map(\.name) == ["3f1c-random"])
      let week = try #require(
        try owner.calendarObjects(inCalendar: work.id, overlapping: 1_777_852_800, 1_778_457_600))
      #expect(week.map(\.name) == ["3f1c-random"])

      // An object named by its UID keeps no name of its own.
      let plain = try owner.putCalendarObject(Self.object("plain", named: "plain", in: work), inCalendar: work.id)
      #expect(plain.object.events.first?.resourceName == nil)
      #expect(try owner.calendarObject(named: "plain", inCalendar: work.id)?.uid == "plain")
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func aUIDStoredUnderAnotherNameIsRefusedAndNothingIsWritten() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      try owner.putCalendarObject(Self.object("a@example.com", named: "first", in: work), inCalendar: work.id)
      try owner.putCalendarObject(Self.object("b", named: "b", in: work), inCalendar: work.id)
      let head = try store.head().position
      #expect(throws: StoreError.calendar(.uidInUse(uid: "a@example.com", name: "first"))) {
        try owner.putCalendarObject(Self.object("a@example.com", named: "second", in: work), inCalendar: work.id)
      }
      // Its UID as a name finds nothing, and storing there is the same conflict.
      #expect(throws: StoreError.calendar(.uidInUse(uid: "a@example.com", name: "first"))) {
        try owner.putCalendarObject(Self.object("a@example.com", named: "a@example.com", in: work), inCalendar: work.id)
      }
      #expect(throws: StoreError.calendar(.uidInUse(uid: "b", name: "b"))) {
        try owner.putCalendarObject(Self.object("b", named: "b-elsewhere", in: work), inCalendar: work.id)
      }
      #expect(try store.head().position == head)
      // Another calendar may hold the same UID under any name.
      let home = try owner.save(EventCalendar(title: "Home"))
      #expect(
        try owner.putCalendarObject(Self.object("a@example.com", named: "second", in: home), inCalendar: home.id)
          .created)
    }
  }

  @Test func replacingKeepsTheItemAndItsNameAndOtherSavesKeepTheNameToo() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let first = try owner.putCalendarObject(
        Self.object("x@example.com", named: "n1", in: work), inCalendar: work.id
      ).object
      let second = try owner.putCalendarObject(
        Self.object("x@example.com", named: "n1", in: work, title: "Dentist, moved"), inCalendar: work.id)
      #expect(!second.created && second.object.events.first?.id == first.events.first?.id)
      // A save through the API, an import of the UID and a move keep the name.
      var event = try #require(second.object.events.first)
      event.title = "Dentist, renamed"
      event = try owner.save(event, span: .thisEvent)
      #expect(event.resourceName == "n1")
      #expect(try owner.calendarObject(named: "n1", inCalendar: work.id)?.events.first?.title == "Dentist, renamed")
      let home = try owner.save(EventCalendar(title: "Home"))
      event.calendarID = home.id
      _ = try owner.save(event, span: .thisEvent)
      #expect(try owner.calendarObject(named: "n1", inCalendar: work.id) == nil)
      #expect(try owner.calendarObject(named: "n1", inCalendar: home.id)?.uid == "x@example.com")
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func aSyncAndARemovalSpeakOfTheName() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let lists = try owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      let work = try owner.save(EventCalendar(title: "Work"))
      let start = try store.head().position
      try owner.putCalendarObject(Self.object("e@example.com", named: "e-name", in: work), inCalendar: work.id)
      var milk = Reminder(calendarID: lists.id, title: "Milk")
      milk.externalID = "milk@example.com"
      try owner.putCalendarObject(
        CalendarObject(uid: "milk@example.com", name: "r-name", reminders: [milk]), inCalendar: lists.id)
      #expect(try owner.calendarObject(named: "r-name", inCalendar: lists.id)?.reminders.first?.title == "Milk")
      let added = try #require(try owner.calendarChanges(inCalendar: work.id, after: start))
      #expect(added.objects.map(\.name) == ["e-name"] && added.objects.map(\.uid) == ["e@example.com"])
      let middle = try store.head().position
      #expect(throws: StoreError.calendar(.objectConditionFailed("e@example.com"))) {
        try owner.removeCalendarObject(named: "e@example.com", inCalendar: work.id)
      }
      try owner.removeCalendarObject(named: "e-name", inCalendar: work.id)
      try owner.removeCalendarObject(named: "r-name", inCalendar: lists.id)
      #expect(try owner.calendarChanges(inCalendar: work.id, after: middle)?.removed == ["e-name"])
      #expect(try owner.calendarChanges(inCalendar: lists.id, after: middle)?.removed == ["r-name"])
      // The name is free again, and a rebuild from the log lists the same.
      try owner.putCalendarObject(Self.object("f@example.com", named: "e-name", in: work), inCalendar: work.id)
      #expect(try store.verifyProjections().isConsistent)
      _ = try store.rebuildProjections()
      #expect(try owner.calendarObject(named: "e-name", inCalendar: work.id)?.uid == "f@example.com")
      #expect(try owner.calendarChanges(inCalendar: work.id, after: middle)?.removed == [])
    }
  }
}
