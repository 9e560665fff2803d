import Kalends
import Testing

@Suite("The birthdays calendar: a contact's change is heard as its events' change")
struct BirthdayNoticeTests {
  @Test func subscribersHearOfTheBirthdaysOfTheContactsTheyMaySee() async throws {
    try await withStore { store, _ in
      let fixture = try BirthdaysCalendarTests.Fixture(store)
      let app = BirthdaysCalendarTests.app
      try fixture.owner.privacySettings().setLimitedAccess(for: app, contacts: [fixture.ann.id])
      let limited = try fixture.owner.session(for: app)
      try fixture.owner.register(
        Client(id: "com.example.agenda", name: "Agenda", usageDescriptions: [.calendarsFull: "Your agenda."]))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: "com.example.agenda", service: .calendars)
      let agenda = try fixture.owner.session(for: "com.example.agenda")
      let start = try store.head().position.next

      var ann = fixture.ann
      ann.birthday = ContactDate(year: 1992, month: 3, day: 1)
      try fixture.owner.contactStore.save(ann)
      var bo = fixture.bo
      bo.anniversary = nil
      try fixture.owner.contactStore.save(bo)
      var dee = Contact(givenName: "Dee")
      dee.birthday = ContactDate(year: nil, month: 7, day: 4)
      dee = try fixture.owner.contactStore.save(dee)
      try fixture.owner.contactStore.remove(fixture.cy)
      // Last, a change every subscriber here may hear of, so that its notices reach the head.
      try fixture.owner.save(
        Event(
          calendarID: fixture.work.id, title: "Review", start: local(2026, 12, 1, 9), end: local(2026, 12, 1, 10),
          timeZone: "UTC"), span: .thisEvent)
      let head = try store.head().position
      func event(_ contact: Contact, _ kind: BirthdayKind) -> ChangedObject {
        .event(BirthdaysCalendar.eventID(of: contact.id, kind))
      }

      let owner = NoticeCollector(fixture.owner.changes(from: start))
      #expect(await owner.wait(through: head))
      #expect(owner.merged[event(ann, .birthday)] == .added, "a date held: fetch it")
      #expect(owner.merged[event(bo, .birthday)] == .added)
      #expect(owner.merged[event(bo, .anniversary)] == .removed)
      #expect(owner.merged[event(dee, .birthday)] == .added)
      #expect(owner.merged[event(dee, .anniversary)] == nil, "a new contact without one: nothing")
      #expect(owner.merged[event(fixture.cy, .birthday)] == .removed)

      // Limited to Ann: of Ann's only.
      let heard = NoticeCollector(limited.changes(from: start))
      #expect(await heard.wait(through: head))
      let events = heard.merged.keys.filter { if case .event = $0 { true } else { false } }
      #expect(heard.merged[event(ann, .birthday)] == .added)
      for other in [bo, dee, fixture.cy] {
        #expect(heard.merged[event(other, .birthday)] == nil && heard.merged[event(other, .anniversary)] == nil)
      }
      #expect(events.count == 3, "Ann's two and the review: \(heard.merged)")

      // No access to contacts: none of them.
      let agendaHeard = NoticeCollector(agenda.changes(from: start))
      #expect(await agendaHeard.wait(through: head))
      #expect(agendaHeard.merged.count == 1, "the review alone: \(agendaHeard.merged)")
    }
  }
}
