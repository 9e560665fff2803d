import Foundation
import Kalends
import Testing

/// Items named by the start of their id, as git names commits: one range of the objects index,
/// live items only, and for an app only what it may see, its reads recorded and its refusals too.
@Suite("Items by the start of their id")
struct IDPrefixTests {
  static func event(_ id: String, _ title: String, in calendar: EventCalendar) -> Event {
    var event = Event(
      calendarID: calendar.id, title: title, start: local(2026, 6, 1, 9), end: local(2026, 6, 1, 10),
      timeZone: "Europe/Berlin")
    event.id = ObjectID(id)!
    return event
  }

  @Test func aPrefixFindsTheLiveItemsOfItsKindThatTheSessionMaySee() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let owner = fixture.owner
      let home = try owner.save(EventCalendar(title: "Home"))
      let list = try owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      let a = try owner.save(
        Self.event("1234ABCD-0000-4000-8000-000000000001", "a", in: fixture.calendar), span: .thisEvent)
      let b = try owner.save(
        Self.event("1234ABCE-0000-4000-8000-000000000002", "b", in: fixture.calendar), span: .thisEvent)
      let c = try owner.save(Self.event("1234FFFF-0000-4000-8000-000000000003", "c", in: home), span: .thisEvent)
      let gone = try owner.save(Self.event("1234ABCD-9000-4000-8000-000000000004", "gone", in: home), span: .thisEvent)
      try owner.remove(gone, span: .thisEvent)
      var reminder = Reminder(calendarID: list.id, title: "r")
      reminder.id = ObjectID("1234ABCD-0000-4000-8000-000000000005")!
      let r = try owner.save(reminder)

      #expect(try owner.eventIDs(beginningWith: "1234") == [a.id, b.id, c.id], "removed ones are not found")
      #expect(try owner.eventIDs(beginningWith: "1234abc") == [a.id, b.id], "either case")
      #expect(try owner.eventIDs(beginningWith: "1234-ABCD-0") == [a.id], "dashes anywhere")
      #expect(try owner.eventIDs(beginningWith: "1234", limit: 2) == [a.id, b.id])
      #expect(try owner.reminderIDs(beginningWith: "1234ABCD") == [r.id], "each kind its own")
      for nothing in ["123", "12zz", "", "1234ABCD-0000-4000-8000-0000000000011", "5678"] {
        #expect(try owner.eventIDs(beginningWith: nothing).isEmpty, "\(nothing)")
      }

      // An app with the Work calendar chosen finds nothing of Home; its read is recorded.
      #expect(
        try owner.privacySettings().setCalendarAccess(for: PrivacyFixture.planner, calendars: [fixture.calendar.id])
          == .fullAccess)
      let chosen = try owner.session(for: PrivacyFixture.planner)
      #expect(try chosen.eventIDs(beginningWith: "1234") == [a.id, b.id])
      #expect(try chosen.eventIDs(beginningWith: "1234FF").isEmpty)
      // Denied: refused, recorded, nothing found.
      try owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
      let denied = try owner.session(for: PrivacyFixture.planner)
      let position = try store.head().position
      #expect(throws: StoreError.self) { try denied.eventIDs(beginningWith: "1234") }
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, service: .calendars, since: position) == 1)
    }
  }
}
