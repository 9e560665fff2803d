import Kalends
import Testing

/// A calendar's sync (``EventStore/calendarChanges(inCalendar:after:limit:)``): what changed after a
/// position, told by `UID`, including what left the calendar, for what the session may see.
@Suite("Calendar sync")
struct CalendarSyncTests {
  /// A new event with `uid` in `calendar`.
  static func event(_ uid: String, in calendar: EventCalendar, day: Int = 4) -> Event {
    var event = Event(
      calendarID: calendar.id, title: uid, start: local(2026, 5, day, 10), end: local(2026, 5, day, 11),
      timeZone: "Europe/Berlin")
    event.externalID = uid
    return event
  }

  @Test func aFirstSyncListsEverythingAndTheNextOnlyWhatChanged() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let home = try owner.save(EventCalendar(title: "Home"))
      let kept = try owner.save(Self.event("kept", in: work), span: .thisEvent)
      var changed = try owner.save(Self.event("changed", in: work), span: .thisEvent)
      let removed = try owner.save(Self.event("removed", in: work), span: .thisEvent)
      var moved = try owner.save(Self.event("moved", in: work), span: .thisEvent)
      _ = try owner.save(Self.event("elsewhere", in: home), span: .thisEvent)

      let first = try #require(try owner.calendarChanges(inCalendar: work.id, after: nil))
      #expect(Set(first.objects.map(\.uid)) == ["kept", "changed", "removed", "moved"])
      #expect(first.removed.isEmpty && !first.isTruncated)
      #expect(first.position == (try store.head().position))
      let unchanged = try #require(try owner.calendarChanges(inCalendar: work.id, after: first.position))
      #expect(unchanged.objects.isEmpty && unchanged.removed.isEmpty && unchanged.position == first.position)

      changed.title = "changed again"
      changed = try owner.save(changed, span: .thisEvent)
      try owner.remove(removed, span: .thisEvent)
      moved.calendarID = home.id
      moved = try owner.save(moved, span: .thisEvent)
      _ = try owner.save(Self.event("added", in: work), span: .thisEvent)
      _ = try owner.save(Self.event("other", in: home), span: .thisEvent)

      let next = try #require(try owner.calendarChanges(inCalendar: work.id, after: first.position))
      #expect(next.objects.map(\.uid) == ["changed", "added"])
      #expect(next.objects.first?.events.first?.title == "changed again")
      #expect(next.removed == ["removed", "moved"])
      #expect(next.position == (try store.head().position))
      #expect(!next.objects.contains { $0.uid == kept.externalID })
      // The calendar it moved to hears of it as new.
      let there = try #require(try owner.calendarChanges(inCalendar: home.id, after: first.position))
      #expect(there.objects.map(\.uid) == ["moved", "other"] && there.removed.isEmpty)
    }
  }

  @Test func aReminderMovedToAnotherListIsGoneFromTheFirst() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let errands = try owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      let later = try owner.save(EventCalendar(title: "Later", allowedEntityTypes: .reminders))
      var reminder = Reminder(calendarID: errands.id, title: "Milk")
      reminder.externalID = "milk"
      reminder = try owner.save(reminder)
      let start = try store.head().position
      reminder.calendarID = later.id
      _ = try owner.save(reminder)
      let gone = try #require(try owner.calendarChanges(inCalendar: errands.id, after: start))
      #expect(gone.removed == ["milk"] && gone.objects.isEmpty)
      let arrived = try #require(try owner.calendarChanges(inCalendar: later.id, after: start))
      #expect(arrived.objects.map(\.uid) == ["milk"] && arrived.removed.isEmpty)
      // The move is in the log: field 7 of the save names the list it left.
      let record = try #require(try store.lastRecords(1).first)
      let fields = try namedFields(record)
      #expect(fields["movedFrom"] == .uuid(errands.id.description.lowercased()), "\(fields)")
    }
  }

  @Test func aLimitStopsBeforeTheChangeThatWouldExceedItAndSkipsNothing() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      for index in 0..<7 { _ = try owner.save(Self.event("e\(index)", in: work, day: index + 1), span: .thisEvent) }
      var first = try #require(try owner.calendarChanges(inCalendar: work.id, after: nil, limit: 3))
      #expect(first.isTruncated && first.objects.map(\.uid) == ["e0", "e1", "e2"])
      var seen = first.objects.map(\.uid)
      var steps = 1
      while first.isTruncated && steps < 10 {
        first = try #require(try owner.calendarChanges(inCalendar: work.id, after: first.position, limit: 3))
        #expect(first.objects.count <= 3)
        seen += first.objects.map(\.uid)
        steps += 1
      }
      #expect(Set(seen) == Set((0..<7).map { "e\($0)" }) && seen.count == 7)
      #expect(steps == 3)
    }
  }

  @Test func aTokenBeyondTheHeadOrAnErasedRemovalAsksForAFullSync() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let secret = try owner.save(Self.event("secret", in: work), span: .thisEvent)
      let start = try store.head().position
      #expect(throws: StoreError.calendar(.changesUnavailable(after: LogPosition(start.rawValue + 100)))) {
        try owner.calendarChanges(inCalendar: work.id, after: LogPosition(start.rawValue + 100))
      }
      try owner.privacySettings().erase(.event(secret.id), reason: "test")
      // Its UID is erased with it: the change cannot be named, so the client starts over.
      #expect(throws: StoreError.calendar(.changesUnavailable(after: start))) {
        try owner.calendarChanges(inCalendar: work.id, after: start)
      }
      let over = try #require(try owner.calendarChanges(inCalendar: work.id, after: nil))
      #expect(over.objects.isEmpty)
      #expect(try owner.calendarChanges(inCalendar: work.id, after: over.position)?.removed == [])
    }
  }

  @Test func aRebuildKeepsWhatARemovalNames() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let event = try owner.save(Self.event("gone", in: work), span: .thisEvent)
      let start = try store.head().position
      try owner.remove(event, span: .thisEvent)
      _ = try store.rebuildProjections()
      #expect(try owner.calendarChanges(inCalendar: work.id, after: start)?.removed == ["gone"])
    }
  }

  @Test func theStampChangesExactlyWhenTheCalendarDoes() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let home = try owner.save(EventCalendar(title: "Home"))
      let old = try owner.save(Self.event("old", in: work), span: .thisEvent)
      _ = try owner.save(Self.event("new", in: work), span: .thisEvent)
      let before = try #require(try owner.calendarStamp(inCalendar: work.id))
      _ = try owner.save(Self.event("elsewhere", in: home), span: .thisEvent)
      let same = try #require(try owner.calendarStamp(inCalendar: work.id))
      #expect(same.version == before.version && same.items == before.items)
      // Removing the older of two leaves the latest version as it was: the count tells.
      try owner.remove(old, span: .thisEvent)
      let after = try #require(try owner.calendarStamp(inCalendar: work.id))
      #expect(after.version == before.version && after.items == 1 && before.items == 2)
    }
  }

  @Test func aSessionSyncsOnlyWhatItMaySee() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let owner = fixture.owner
      let home = try owner.save(EventCalendar(title: "Home"))
      let start = try store.head().position
      _ = try owner.save(Self.event("work", in: fixture.calendar), span: .thisEvent)
      _ = try owner.save(Self.event("home", in: home), span: .thisEvent)

      #expect(
        try owner.privacySettings().setCalendarAccess(for: PrivacyFixture.planner, calendars: [fixture.calendar.id])
          == .fullAccess)
      let chosen = try owner.session(for: PrivacyFixture.planner)
      #expect(try chosen.calendarChanges(inCalendar: fixture.calendar.id, after: start)?.objects.map(\.uid) == ["work"])
      #expect(try chosen.calendarChanges(inCalendar: home.id, after: start) == nil)

      try owner.privacySettings().setAccess(.writeOnly, for: PrivacyFixture.planner, service: .calendars)
      let writer = try owner.session(for: PrivacyFixture.planner)
      let position = try store.head().position
      // A write-only session sees the calendar for new events alone, and none of its changes.
      let target = try #require(try writer.calendars(for: .events).first)
      let told = try #require(try writer.calendarChanges(inCalendar: target.id, after: start))
      #expect(told.objects.isEmpty && told.removed.isEmpty && told.position == start)
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, service: .calendars, since: position) == 1)
    }
  }
}
