import Kalends
import Testing

@Suite("Privacy: full access to chosen calendars only")
struct ChosenCalendarsTests {
  static let app = "com.example.work"

  /// Two event calendars with an event each, a reminders list, and a registered app.
  struct Fixture {
    let store: Store
    let owner: EventStore
    let work: EventCalendar
    let home: EventCalendar
    let lists: EventCalendar
    let meeting: Event
    let dinner: Event

    init(_ store: Store) throws {
      self.store = store
      owner = EventStore(store: store)
      work = try owner.save(EventCalendar(title: "Work"))
      home = try owner.save(EventCalendar(title: "Home"))
      lists = try owner.save(EventCalendar(title: "Lists", allowedEntityTypes: .reminders))
      meeting = try owner.save(Self.event("Meeting", in: work.id), span: .thisEvent)
      dinner = try owner.save(Self.event("Dinner", in: home.id), span: .thisEvent)
      try owner.register(
        Client(
          id: ChosenCalendarsTests.app, name: "Work App",
          usageDescriptions: [.calendarsFull: "Plans your work.", .remindersFull: "Tasks."]))
    }

    static func event(_ title: String, in calendar: ObjectID, day: Int = 4) -> Event {
      Event(
        calendarID: calendar, title: title, start: local(2026, 5, day, 10), end: local(2026, 5, day, 11),
        timeZone: "UTC")
    }
  }

  static let may = EventPredicate(start: 1_777_852_800, end: 1_777_852_800 + 7 * 86_400)

  @Test func anAppSeesQueriesAndChangesOnlyTheCalendarsItWasGiven() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      #expect(
        try fixture.owner.privacySettings().setCalendarAccess(for: Self.app, calendars: [fixture.work.id])
          == .fullAccess)
      #expect(try fixture.owner.privacySettings().chosenCalendars(for: Self.app) == [fixture.work.id])
      let app = try fixture.owner.session(for: Self.app)
      #expect(try app.calendars(for: .events).map(\.id) == [fixture.work.id])
      #expect(try app.calendar(withID: fixture.home.id) == nil)
      #expect(try app.event(withID: fixture.dinner.id) == nil)
      #expect(try app.event(withID: fixture.meeting.id)?.title == "Meeting")
      #expect(try app.events(inCalendar: fixture.home.id).isEmpty)
      #expect(try app.events(matching: Self.may).map(\.title) == ["Meeting"])
      let onlyHome = EventPredicate(start: Self.may.start, end: Self.may.end, calendars: [fixture.home.id])
      #expect(try app.events(matching: onlyHome).isEmpty)
      #expect(try app.instances(matching: onlyHome).isEmpty)
      #expect(try app.exportICalendar(calendars: [fixture.work.id]).events.map(\.title) == ["Meeting"])
      #expect(throws: StoreError.calendar(.calendarNotFound(fixture.home.id))) {
        try app.exportICalendar(calendars: [fixture.home.id])
      }

      let before = try store.head().position
      var moved = try #require(try app.event(withID: fixture.meeting.id))
      moved.calendarID = fixture.home.id
      var renamed = fixture.home
      renamed.title = "Mine now"
      let ics = Array(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260505T100000Z\r\nDTEND:20260505T110000Z\r\nSUMMARY:In\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
          .utf8)
      let refused: [(String, () throws -> Void)] = [
        ("add to home", { _ = try app.save(Fixture.event("Sneak", in: fixture.home.id), span: .thisEvent) }),
        ("move out of work", { _ = try app.save(moved, span: .thisEvent) }),
        ("change dinner", { _ = try app.save(fixture.dinner, span: .thisEvent, overwrite: true) }),
        ("remove dinner", { try app.remove(fixture.dinner, span: .thisEvent) }),
        ("rename home", { _ = try app.save(renamed) }),
        ("remove home", { try app.remove(fixture.home) }),
        ("import into home", { _ = try app.importICalendar(ics, into: .calendar(fixture.home.id)) }),
      ]
      for (name, call) in refused {
        do {
          try call()
          Issue.record("\(name) was allowed")
        } catch StoreError.access(.accessDenied(let client, .calendars, _, _)) {
          #expect(client == Self.app, "\(name)")
        } catch {
          Issue.record("\(name) failed otherwise: \(error)")
        }
      }
      #expect(
        try countedRefusals(store, client: Self.app, since: before) == refused.count, "every refusal is recorded")
      #expect(try fixture.owner.events(inCalendar: fixture.home.id).map(\.title) == ["Dinner"])
      #expect(try fixture.owner.calendar(withID: fixture.home.id)?.title == "Home")

      // What it may use, it uses; a calendar it creates joins them.
      let standup = try app.save(Fixture.event("Standup", in: fixture.work.id, day: 5), span: .thisEvent)
      let mine = try app.save(EventCalendar(title: "Side project"))
      try app.save(Fixture.event("Hack", in: mine.id, day: 6), span: .thisEvent)
      #expect(Set(try app.calendars(for: .events).map(\.id)) == [fixture.work.id, mine.id])
      #expect(try app.events(matching: Self.may).map(\.title) == ["Meeting", "Standup", "Hack"])
      #expect(
        try fixture.owner.privacySettings().chosenCalendars(for: Self.app) == [fixture.work.id, mine.id].sorted())
      try app.remove(standup, span: .thisEvent)
    }
  }

  @Test func thePromptGivesChosenCalendarsAndSettingsGiveThemAllBack() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let app = try fixture.owner.session(for: Self.app)
      let prompter = FixedAnswerPrompter(.allow, calendars: [fixture.home.id])
      #expect(try app.requestFullAccess(to: .calendars, prompter: prompter) == .fullAccess)
      #expect(try store.lastRecords(1).first?.kind == .accessScopeChanged)
      #expect(try app.calendars(for: .events).map(\.id) == [fixture.home.id])
      // Reminder lists are a service of their own.
      #expect(try app.requestFullAccess(to: .reminders, prompter: FixedAnswerPrompter(.allow)) == .fullAccess)
      #expect(try app.calendars(for: .reminders).map(\.id) == [fixture.lists.id])

      let states = try PrivacyAudit(store: store).state().filter { $0.client == Self.app && $0.service == .calendars }
      #expect(states.first?.chosen == [fixture.home.id])
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: Self.app, service: .calendars)
      #expect(try fixture.owner.privacySettings().chosenCalendars(for: Self.app) == nil)
      let again = try fixture.owner.session(for: Self.app)
      #expect(Set(try again.calendars(for: .events).map(\.id)) == [fixture.work.id, fixture.home.id])
      #expect(
        try PrivacyAudit(store: store).state().first { $0.client == Self.app && $0.service == .calendars }?.chosen
          == nil)
      #expect(throws: StoreError.calendar(.calendarNotFound(fixture.lists.id))) {
        try fixture.owner.privacySettings().setCalendarAccess(for: Self.app, calendars: [fixture.lists.id])
      }
    }
  }

  @Test func whoCanACalendarNamesOnlyTheAppsWhoseAccessCoversIt() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      try fixture.owner.register(
        Client(id: "com.example.all", name: "All", usageDescriptions: [.calendarsFull: "All."]))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: "com.example.all", service: .calendars)
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: Self.app, service: .calendars)
      let beforeChoice = try store.lastRecords(1)[0].timestamp
      try fixture.owner.privacySettings().setCalendarAccess(for: Self.app, calendars: [fixture.work.id])
      let audit = PrivacyAudit(store: store)
      #expect(try audit.whoCan(.calendars, object: fixture.home.id).map(\.client) == ["com.example.all"])
      #expect(
        Set(try audit.whoCan(.calendars, object: fixture.work.id).map(\.client)) == ["com.example.all", Self.app])
      #expect(
        Set(try audit.whoCan(.calendars, object: fixture.home.id, at: beforeChoice).map(\.client))
          == ["com.example.all", Self.app], "before the choice the app could use every calendar")
    }
  }

  @Test func anAppGivenChosenCalendarsHearsOnlyOfThem() async throws {
    try await withStore { store, _ in
      let fixture = try Fixture(store)
      try fixture.owner.privacySettings().setCalendarAccess(for: Self.app, calendars: [fixture.work.id])
      let app = try fixture.owner.session(for: Self.app)
      let start = try store.head().position
      var meeting = fixture.meeting
      meeting.title = "Meeting (moved)"
      try fixture.owner.save(meeting, span: .thisEvent)
      var dinner = fixture.dinner
      dinner.title = "Dinner (moved)"
      try fixture.owner.save(dinner, span: .thisEvent)
      var home = fixture.home
      home.title = "House"
      try fixture.owner.save(home)
      let head = try store.head().position
      let heard = try await heardChanges(app, from: start.next, through: head).map(\.object)
      #expect(heard == [.event(fixture.meeting.id)])
      #expect(try store.verifyProjections().isConsistent)
      let digests = try store.projectionDigests()
      try store.rebuildProjections()
      #expect(try store.projectionDigests() == digests)
    }
  }

  /// An event the owner moves out of the app's calendars is gone from what the app sees: it hears
  /// a removal; one moved into them is new to it: it hears an addition. Told by the record alone
  /// (`movedFrom`), so a catch-up from any position hears the same.
  @Test func anEventMovedOutOfOrIntoTheChosenCalendarsIsHeardAsRemovedOrAdded() async throws {
    try await withStore { store, _ in
      let fixture = try Fixture(store)
      try fixture.owner.privacySettings().setCalendarAccess(for: Self.app, calendars: [fixture.work.id])
      let app = try fixture.owner.session(for: Self.app)
      var meeting = try #require(try app.event(withID: fixture.meeting.id))
      let start = try store.head().position
      meeting.calendarID = fixture.home.id
      try fixture.owner.save(meeting, span: .thisEvent)
      #expect(try app.event(withID: meeting.id) == nil)
      let moved = try store.head().position
      var dinner = fixture.dinner
      dinner.calendarID = fixture.work.id
      try fixture.owner.save(dinner, span: .thisEvent)
      var dinnerAgain = try #require(try fixture.owner.event(withID: dinner.id))
      dinnerAgain.title = "Dinner, later"
      try fixture.owner.save(dinnerAgain, span: .thisEvent)
      let head = try store.head().position

      #expect(
        try await lastHeard(app, from: start.next, through: head) == [
          .event(meeting.id): .removed, .event(dinner.id): .added,
        ])
      #expect(try await lastHeard(app, from: moved.next, through: head) == [.event(dinner.id): .added])
      #expect(try app.event(withID: dinner.id)?.title == "Dinner, later")
      // The move is a fact of the record: its former calendar, named only when it changed.
      let records = try store.records(from: start.next, limit: 10)
      let movedFrom = try records.flatMap { try $0.fields() }.filter { $0.name == "movedFrom" }.map(\.value)
      #expect(
        movedFrom == [.uuid(fixture.work.id.description.lowercased()), .uuid(fixture.home.id.description.lowercased())])
      #expect(try store.verifyProjections().isConsistent)
    }
  }
}
