import Kalends
import Testing

@Suite("Refresh or refetch")
struct RefreshTests {
  @Test func refreshTakesOtherChangesAndKeepsUnsavedLocalOnes() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let saved = try fixture.events.save(try fixture.meeting("Standup"), span: .thisEvent)
      var held = try #require(try fixture.events.event(withID: saved.id))
      #expect(try fixture.events.refresh(&held), "nothing changed: still valid")
      #expect(held == saved)

      held.title = "Standup (local, unsaved)"
      var elsewhere = saved
      elsewhere.location = "Room 4"
      elsewhere.title = "Renamed elsewhere"
      let other = try fixture.events.save(elsewhere, span: .thisEvent)
      #expect(try fixture.events.refresh(&held))
      #expect(held.title == "Standup (local, unsaved)", "the unsaved local change is kept")
      #expect(held.location == "Room 4", "the other change is taken")
      #expect(held.version == other.version)
      let resaved = try fixture.events.save(held, span: .thisEvent)
      #expect(resaved.title == "Standup (local, unsaved)" && resaved.location == "Room 4")
    }
  }

  @Test func aRemovedEventOrCalendarSaysRefetch() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var first = try fixture.events.save(try fixture.meeting("One"), span: .thisEvent)
      var second = try fixture.events.save(try fixture.meeting("Two"), span: .thisEvent)
      try fixture.events.remove(first, span: .thisEvent)
      let before = first
      #expect(try fixture.events.refresh(&first) == false)
      #expect(first == before, "left as it was")
      var calendar = fixture.calendar
      try fixture.events.remove(calendar)
      #expect(try fixture.events.refresh(&second) == false, "its calendar is gone")
      #expect(try fixture.events.refresh(&calendar) == false)
      var unsaved = try fixture.meeting("Never saved")
      #expect(try fixture.events.refresh(&unsaved) == false)
    }
  }

  @Test func anOccurrenceRefreshesByItsIdentity() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.events.save(
        try fixture.meeting("Weekly", rrule: "FREQ=WEEKLY;COUNT=6"), span: .thisEvent)
      let third = local(2026, 4, 12, 9)
      var held = try #require(try fixture.events.event(withID: series.id, occurrence: third))
      var detached = held
      detached.title = "Weekly (moved)"
      detached.start = local(2026, 4, 12, 11)
      detached.end = local(2026, 4, 12, 12)
      try fixture.events.save(detached, span: .thisEvent)
      held.notes = "my unsaved note"
      #expect(try fixture.events.refresh(&held))
      #expect(held.title == "Weekly (moved)" && held.start == local(2026, 4, 12, 11))
      #expect(held.occurrenceDate == third && held.notes == "my unsaved note")

      var fourth = try #require(try fixture.events.event(withID: series.id, occurrence: local(2026, 4, 19, 9)))
      let current = try #require(try fixture.events.event(withID: series.id, occurrence: local(2026, 4, 19, 9)))
      try fixture.events.remove(current, span: .thisEvent)
      #expect(try fixture.events.refresh(&fourth) == false, "that occurrence was removed")
      #expect(try fixture.events.refresh(&held), "the others are still there")
    }
  }

  @Test func aRevokedSessionSaysRefetch() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
      var held = try #require(try app.event(withID: fixture.existing.id))
      #expect(try app.refresh(&held))
      try fixture.owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
      #expect(try app.refresh(&held) == false, "the session ended")
      let next = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try next.refresh(&held) == false, "a new session without access")
    }
  }

  @Test func remindersAndCalendarsRefreshToo() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let lists = try fixture.events.save(EventCalendar(title: "Tasks", allowedEntityTypes: .reminders))
      var reminder = try fixture.events.save(Reminder(calendarID: lists.id, title: "Buy milk"))
      var calendar = lists
      var elsewhere = reminder
      elsewhere.priority = 1
      try fixture.events.save(elsewhere)
      reminder.notes = "oat"
      #expect(try fixture.events.refresh(&reminder))
      #expect(reminder.priority == 1 && reminder.notes == "oat")
      var renamed = lists
      renamed.color = "#FF0000"
      try fixture.events.save(renamed)
      calendar.title = "Errands"
      #expect(try fixture.events.refresh(&calendar))
      #expect(calendar.title == "Errands" && calendar.color == "#FF0000")
      try fixture.events.remove(reminder)
      #expect(try fixture.events.refresh(&reminder) == false)
    }
  }
}
