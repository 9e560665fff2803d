import Kalends
import KalendsSynthetic
import Testing

@Suite("The birthdays calendar: derived from the contacts, seen only with the contact")
struct BirthdaysCalendarTests {
  static let app = PrivacyFixture.planner

  /// A store with the birthdays calendar, a Work calendar and three contacts: Ann (born on
  /// February 29, 1992), Bo (December 3 without a year; married December 5, 2010), and Cy with no
  /// date; the planner app registered for calendars and contacts.
  struct Fixture {
    let store: Store
    let owner: EventStore
    let work: EventCalendar
    let ann: Contact
    let bo: Contact
    let cy: Contact

    init(_ store: Store) throws {
      self.store = store
      owner = EventStore(store: store)
      work = try owner.save(EventCalendar(title: "Work"))
      try owner.addBirthdaysCalendar()
      var ann = Contact(givenName: "Ann", familyName: "Lee")
      ann.birthday = ContactDate(year: 1992, month: 2, day: 29)
      self.ann = try owner.contactStore.save(ann)
      var bo = Contact(givenName: "Bo")
      bo.birthday = ContactDate(year: nil, month: 12, day: 3)
      bo.anniversary = ContactDate(year: 2010, month: 12, day: 5)
      self.bo = try owner.contactStore.save(bo)
      cy = try owner.contactStore.save(Contact(givenName: "Cy"))
      try owner.register(
        Client(
          id: BirthdaysCalendarTests.app, name: "Planner",
          usageDescriptions: [.calendarsFull: "Shows your agenda.", .contacts: "Shows who is invited."]))
      try owner.privacySettings().setAccess(.fullAccess, for: BirthdaysCalendarTests.app, service: .calendars)
    }

    /// What `session` sees of the birthdays calendar from November 2026 to March 2028, as
    /// (title, date) pairs in order.
    func seen(by session: EventStore, zone: ZoneRules = .utc) throws -> [String] {
      try session.events(
        matching: EventPredicate(
          start: zone.resolve(local(2026, 11, 1)), end: zone.resolve(local(2028, 3, 1)),
          calendars: [BirthdaysCalendar.id],
          viewerZone: zone)
      ).map { "\($0.title) \($0.start!.iCalendarDateText)" }
    }
  }

  @Test func itsEventsAreTheContactsDatesEachYear() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      #expect(
        try fixture.seen(by: fixture.owner) == [
          "Bo's Birthday 20261203", "Bo's Anniversary 20261205", "Ann Lee's Birthday 20270228",
          "Bo's Birthday 20271203", "Bo's Anniversary 20271205", "Ann Lee's Birthday 20280229",
        ])
      let calendar = try #require(try fixture.owner.calendars(for: .events).first { $0.id == BirthdaysCalendar.id })
      #expect(calendar.source.kind == .birthdays && !calendar.allowsContentModifications)

      // Every query of all calendars includes it, sorted with the stored events.
      let review = try fixture.owner.save(
        Event(
          calendarID: fixture.work.id, title: "Review", start: local(2026, 12, 3, 9), end: local(2026, 12, 3, 10),
          timeZone: "UTC"), span: .thisEvent)
      let all = try fixture.owner.instances(
        matching: EventPredicate(start: utc(2026, 12, 1), end: utc(2026, 12, 6)))
      #expect(
        all.map(\.id) == [
          BirthdaysCalendar.eventID(of: fixture.bo.id, .birthday), review.id,
          BirthdaysCalendar.eventID(of: fixture.bo.id, .anniversary),
        ])

      // The series, by its identifier: yearly, February 29 on the last day of February.
      let series = try #require(
        try fixture.owner.event(withID: BirthdaysCalendar.eventID(of: fixture.ann.id, .birthday)))
      #expect(series.birthdayContactID == fixture.ann.id && series.isAllDay)
      #expect(
        series.start == local(1992, 2, 29)
          && series.recurrenceRules.map(\.description) == ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"])
      #expect(try fixture.owner.event(withID: series.id, occurrence: local(2027, 2, 28))?.start == local(2027, 2, 28))
      #expect(try fixture.owner.event(withID: series.id, occurrence: local(2027, 3, 1)) == nil)
      let yearless = try #require(
        try fixture.owner.event(withID: BirthdaysCalendar.eventID(of: fixture.bo.id, .birthday)))
      #expect(yearless.start == local(1604, 12, 3))
      #expect(try fixture.owner.event(withID: BirthdaysCalendar.eventID(of: fixture.cy.id, .birthday)) == nil)
    }
  }

  @Test func aChangedContactChangesItWithNoRecordOfItsOwn() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      var bo = fixture.bo
      bo.birthday = ContactDate(year: 1980, month: 1, day: 15)
      bo.anniversary = nil
      bo = try fixture.owner.contactStore.save(bo)
      var cy = fixture.cy
      cy.anniversary = ContactDate(year: nil, month: 12, day: 24)
      try fixture.owner.contactStore.save(cy)
      try fixture.owner.contactStore.remove(fixture.ann)
      let head = try store.head().position
      #expect(
        try fixture.seen(by: fixture.owner) == [
          "Cy's Anniversary 20261224", "Bo's Birthday 20270115", "Cy's Anniversary 20271224", "Bo's Birthday 20280115",
        ])
      #expect(try store.head().position == head, "reading writes nothing")
      // Before the year it starts in, a date has no occurrence.
      bo.birthday = ContactDate(year: 2027, month: 6, day: 1)
      try fixture.owner.contactStore.save(bo)
      #expect(try fixture.seen(by: fixture.owner).filter { $0.hasPrefix("Bo") } == ["Bo's Birthday 20270601"])
      #expect(try store.verify().problem == nil)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func allDayOccurrencesArePlacedInTheViewersZone() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let zone = try ZoneRules.named("America/New_York")
      let instances = try fixture.owner.instances(
        matching: EventPredicate(
          start: zone.resolve(local(2026, 12, 3)), end: zone.resolve(local(2026, 12, 4)),
          calendars: [BirthdaysCalendar.id], viewerZone: zone))
      #expect(instances.map(\.start) == [zone.resolve(local(2026, 12, 3))])
      #expect(instances.map(\.end) == [zone.resolve(local(2026, 12, 4))])
      // In UTC the same window holds the end of the 3rd (and, from 19:00 on, the 4th is not there).
      #expect(try fixture.seen(by: fixture.owner, zone: zone).count == 6)
    }
  }

  @Test func anAppSeesABirthdayOnlyWhenItMaySeeTheContact() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let annOnly = ["Ann Lee's Birthday 20270228", "Ann Lee's Birthday 20280229"]
      // No access to contacts: no birthdays, and nothing asked or refused (it asked for events).
      let before = try store.head().position
      #expect(try fixture.seen(by: try fixture.owner.session(for: Self.app)).isEmpty)
      let bday = BirthdaysCalendar.eventID(of: fixture.ann.id, .birthday)
      #expect(try fixture.owner.session(for: Self.app).event(withID: bday) == nil)
      #expect(try countedRefusals(store, client: Self.app, since: before) == 0)

      // Limited to Ann: Ann's, and the read is recorded as a use of contacts naming her.
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.ann.id])
      let limited = try fixture.owner.session(for: Self.app)
      #expect(try fixture.seen(by: limited) == annOnly)
      #expect(try limited.event(withID: bday)?.birthdayContactID == fixture.ann.id)
      #expect(try limited.event(withID: BirthdaysCalendar.eventID(of: fixture.bo.id, .birthday)) == nil)
      let uses = try PrivacyAudit(store: store).uses(client: Self.app, service: .contacts)
      #expect(uses.contains { $0.operation == "read birthdays" && $0.objects == [fixture.ann.id] }, "\(uses)")
      // Without naming calendars too, and through the streamed path.
      var streamed: [String] = []
      try limited.enumerateEvents(matching: EventPredicate(start: utc(2027, 1, 1), end: utc(2028, 1, 1))) { event in
        streamed.append(event.title)
        return true
      }
      #expect(streamed == ["Ann Lee's Birthday"])

      // Full access to contacts: all of them.
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: Self.app, service: .contacts)
      #expect(try fixture.seen(by: try fixture.owner.session(for: Self.app)).count == 6)

      // Calendars limited to Work: the birthdays calendar is not among them.
      try fixture.owner.privacySettings().setCalendarAccess(for: Self.app, calendars: [fixture.work.id])
      let chosen = try fixture.owner.session(for: Self.app)
      #expect(try chosen.instances(matching: EventPredicate(start: utc(2026, 11, 1), end: utc(2028, 3, 1))).isEmpty)
      #expect(try chosen.event(withID: bday) == nil)

      // Write-only calendars: nothing, and the attempt recorded as for any read.
      try fixture.owner.privacySettings().setAccess(.writeOnly, for: Self.app, service: .calendars)
      let position = try store.head().position
      #expect(try fixture.seen(by: try fixture.owner.session(for: Self.app)).isEmpty)
      #expect(try countedRefusals(store, client: Self.app, service: .calendars, since: position) == 1)
    }
  }

  @Test func itIsReadOnlyAndThePersonsToAddOrRemove() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let app = try fixture.owner.session(for: Self.app)
      let calendar = try #require(try fixture.owner.calendars(for: .events).first { $0.id == BirthdaysCalendar.id })
      var position = try store.head().position
      #expect(throws: StoreError.calendar(.calendarReadOnly(BirthdaysCalendar.id))) {
        try app.save(
          Event(
            calendarID: BirthdaysCalendar.id, title: "Party", start: local(2026, 12, 3, 18),
            end: local(2026, 12, 3, 20),
            timeZone: "UTC"), span: .thisEvent)
      }
      #expect(throws: StoreError.calendar(.calendarReadOnly(BirthdaysCalendar.id))) { try app.remove(calendar) }
      var renamed = calendar
      renamed.title = "Mine"
      #expect(throws: StoreError.calendar(.calendarReadOnly(BirthdaysCalendar.id))) { try app.save(renamed) }
      #expect(throws: StoreError.self) { try app.addBirthdaysCalendar() }
      #expect(try countedRefusals(store, client: Self.app, service: .calendars, since: position) == 3)
      let ownerOnly = try PrivacyAudit(store: store).history(client: Self.app).filter {
        $0.kind == .ownerActionRefused && $0.position > position
      }
      #expect(ownerOnly.map(\.operation) == ["add the birthdays calendar"])

      // No other calendar becomes one; adding it again changes nothing.
      #expect(throws: StoreError.calendar(.birthdaysCalendarIsAdded)) {
        try fixture.owner.save(EventCalendar(title: "Mine", source: BirthdaysCalendar.source))
      }
      var moved = fixture.work
      moved.source = BirthdaysCalendar.source
      #expect(throws: StoreError.calendar(.birthdaysCalendarIsAdded)) { try fixture.owner.save(moved) }
      position = try store.head().position
      #expect(try fixture.owner.addBirthdaysCalendar().version == calendar.version)
      #expect(try store.head().position == position)

      // The person renames it (it stays read-only), removes it, and adds it back.
      let saved = try fixture.owner.save(renamed)
      #expect(saved.title == "Mine" && !saved.allowsContentModifications && saved.source.kind == .birthdays)
      try fixture.owner.remove(saved)
      #expect(try fixture.seen(by: fixture.owner).isEmpty)
      #expect(try fixture.owner.event(withID: BirthdaysCalendar.eventID(of: fixture.bo.id, .birthday)) == nil)
      try fixture.owner.addBirthdaysCalendar(title: "Birthdays")
      #expect(try fixture.seen(by: fixture.owner).count == 6)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  /// Each series, expanded by python-dateutil from the rule the store gives it, has the
  /// occurrences a range query finds: the query's own placing of dates agrees with the rule apps
  /// and clients see. 150 contacts with random dates (a third without a year, some on February 29).
  @Test func theQueryAgreesWithDateutilExpandingTheSeries() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.addBirthdaysCalendar()
      var random = SeededGenerator(seed: 2026)
      var contacts: [Contact] = []
      for index in 0..<150 {
        var contact = Contact(givenName: "P\(index)")
        let month = Int.random(in: 1...12, using: &random)
        let day = index % 10 == 0 ? 29 : Int.random(in: 1...28, using: &random)
        let year: Int? = index % 3 == 0 ? nil : Int.random(in: 1930...2030, using: &random)
        contact.birthday =
          ContactDate(year: year, month: index % 10 == 0 ? 2 : month, day: day)
          ?? ContactDate(year: year, month: month, day: 28)
        if index % 4 == 0 { contact.anniversary = ContactDate(year: year.map { $0 + 20 }, month: month, day: 1) }
        contacts.append(try owner.contactStore.save(contact))
      }
      let (from, to) = (local(2023, 6, 1), local(2033, 6, 1))
      var found: [ObjectID: [String]] = [:]
      try owner.enumerateEvents(
        matching: EventPredicate(
          start: from.wallClockSeconds, end: to.wallClockSeconds, calendars: [BirthdaysCalendar.id])
      ) { event in
        found[event.id, default: []].append(event.start!.iCalendarText)
        return true
      }
      var cases: [OracleCase] = []
      var ids: [ObjectID] = []
      for contact in contacts {
        for kind in BirthdayKind.allCases where (kind == .birthday ? contact.birthday : contact.anniversary) != nil {
          let series = try #require(try owner.event(withID: BirthdaysCalendar.eventID(of: contact.id, kind)))
          ids.append(series.id)
          cases.append(
            OracleCase(
              id: cases.count, kind: "allday", zone: nil, dtstart: series.start!.iCalendarText,
              rules: series.recurrenceRules.map(\.description), rdates: [], exdates: [], limit: 20,
              after: from.iCalendarText, horizonYear: 2033))
        }
      }
      let results = try RecurrenceOracle.run(cases)
      #expect(cases.count > 150)
      for (index, id) in ids.enumerated() {
        let expected = (results[index] ?? []).map(\.local).filter { $0 < to.iCalendarText }
        #expect(found[id] ?? [] == expected, "\(cases[index])")
      }
    }
  }
}
