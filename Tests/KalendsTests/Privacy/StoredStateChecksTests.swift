import Kalends
import Testing

@Suite("Privacy: checks use stored state, never the caller's copy")
struct StoredStateChecksTests {
  @Test func aCalendarCopyEditedToHoldRemindersDoesNotLetAnAppRemoveAnEventCalendar() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.requestFullAccess(to: .reminders, prompter: ScriptedPrompter(.allow)) == .fullAccess)
      var copy = fixture.calendar
      copy.allowedEntityTypes = .reminders
      let before = try store.head().position
      #expect {
        try app.remove(copy)
      } throws: { error in
        guard case .access(.accessDenied(_, let service, _, _)) = error as? StoreError else { return false }
        return service == .calendars
      }
      #expect(try fixture.owner.calendar(withID: fixture.calendar.id) != nil, "the calendar is still there")
      #expect(try fixture.owner.event(withID: fixture.existing.id) != nil, "and its events")
      let written = try store.records(from: before.next, limit: 10)
      #expect(written.map(\.kind) == [.accessAttemptRefused], "only the refusal is recorded")
    }
  }

  @Test func anAppWithCalendarAccessAloneReadsACalendarThatAlsoHoldsReminders() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let shared = try fixture.owner.save(EventCalendar(title: "Shared", allowedEntityTypes: [.events, .reminders]))
      let lists = try fixture.owner.save(EventCalendar(title: "Tasks", allowedEntityTypes: .reminders))
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow)) == .fullAccess)
      let before = try store.head().position
      #expect(try app.calendar(withID: shared.id)?.id == shared.id, "seen through its events")
      #expect(try store.records(from: before.next, limit: 10).map(\.kind) == [.dataRead], "nothing refused, one read")
      #expect {
        try app.calendar(withID: lists.id)
      } throws: { error in
        guard case .access(.accessDenied(_, let service, _, _)) = error as? StoreError else { return false }
        return service == .reminders
      }
      #expect(try store.records(from: before.next, limit: 10).map(\.kind) == [.dataRead, .accessAttemptRefused])
    }
  }

  @Test func aCalendarForEventsAndRemindersNeedsAccessToBoth() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try app.requestFullAccess(to: .reminders, prompter: ScriptedPrompter(.allow))
      let both = EventCalendar(title: "Both", allowedEntityTypes: [.events, .reminders])
      #expect(throws: StoreError.self) { try app.save(both) }
      let shared = try fixture.owner.save(EventCalendar(title: "Shared", allowedEntityTypes: [.events, .reminders]))
      #expect(throws: StoreError.self) { try app.remove(shared) }
      #expect(try fixture.owner.calendar(withID: shared.id) != nil)
    }
  }
}
