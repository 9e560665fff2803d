import Kalends
import KalendsTestSupport
import Testing

@Suite("Privacy: requests, prompts and decisions")
struct AccessRequestTests {
  @Test func anUndeterminedClientMayDoNothingAndTheRefusalIsRecorded() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.authorizationStatus(for: .calendars) == .notDetermined)
      let denied = StoreError.access(
        .accessDenied(
          client: PrivacyFixture.planner, service: .calendars, status: .notDetermined, operation: "read events"))
      #expect(throws: denied) { try app.event(withID: fixture.existing.id) }
      let record = try #require(try fixture.lastRecords(1).first)
      #expect(record.kind == .accessAttemptRefused && record.principal == .client(PrivacyFixture.planner))
      #expect(record.fields["count"] == .unsigned(1) && record.fields["operation"] == .string("read events"))
      #expect(throws: StoreError.self) { try app.save(fixture.newEvent(), span: .thisEvent) }
      #expect(try fixture.owner.event(withID: fixture.existing.id) != nil, "the owner is never asked")
    }
  }

  @Test func thePersonIsAskedOnceAndTheDecisionSticks() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let prompter = ScriptedPrompter(.allow, .deny)
      #expect(try app.requestFullAccess(to: .calendars, prompter: prompter) == .fullAccess)
      let records = try fixture.lastRecords(2)
      #expect(records.map(\.kind) == [.accessRequested, .accessDecided])
      #expect(records[0].fields["prompted"] == .bool(true) && records[0].principal == .client(PrivacyFixture.planner))
      #expect(records[1].fields["status"] == .unsigned(3) && records[1].fields["previousStatus"] == .unsigned(0))
      #expect(records[1].fields["reason"] == .unsigned(UInt64(DecisionReason.userPrompt.rawValue)))
      #expect(records[1].principal == .person)
      #expect(prompter.asked.map(\.usageDescription) == ["Shows your agenda."])
      #expect(prompter.asked.first?.client.name == "Planner")

      #expect(try app.requestFullAccess(to: .calendars, prompter: prompter) == .fullAccess)
      #expect(prompter.asked.count == 1, "asked exactly once")
      let again = try #require(try fixture.lastRecords(1).first)
      #expect(again.kind == .accessRequested && again.fields["prompted"] == .bool(false))
      #expect(try app.event(withID: fixture.existing.id)?.title == "Review")
      #expect(try app.save(fixture.newEvent(), span: .thisEvent).title == "Booked")
    }
  }

  @Test func aDenialSticksUntilSettingsChangeIt() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let prompter = ScriptedPrompter(.deny)
      #expect(try app.requestFullAccess(to: .reminders, prompter: prompter) == .denied)
      #expect(try app.requestFullAccess(to: .reminders, prompter: prompter) == .denied)
      #expect(prompter.asked.count == 1)
      #expect(throws: StoreError.self) { try app.reminders() }
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .reminders)
      let decided = try #require(try fixture.lastRecords(1).first)
      #expect(decided.fields["reason"] == .unsigned(UInt64(DecisionReason.userSettings.rawValue)))
      #expect(decided.fields["previousStatus"] == .unsigned(UInt64(AuthorizationStatus.denied.rawValue)))
      let fresh = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try fresh.reminders().isEmpty)
    }
  }

  /// The review's flood: a denied app repeating its request wrote one record per call (300 in
  /// 2.4 s). Requests that ask nobody are counted like refusals: at most two records a minute, and
  /// every request counted.
  @Test func anAppAskingAgainInALoopAddsAtMostTwoRecordsAMinuteAndEveryRequestIsCounted() throws {
    let directory = TemporaryDirectory()
    let store = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
    let fixture = try PrivacyFixture(store)
    let app = try fixture.owner.session(for: PrivacyFixture.planner)
    let prompter = ScriptedPrompter(.deny)
    let before = try store.head().position
    for _ in 0..<50 {
      #expect(try app.requestFullAccess(to: .reminders, prompter: prompter) == .denied)
    }
    #expect(prompter.asked.count == 1, "the person is asked once")
    func requests() throws -> [LogRecord] {
      try store.records(from: before.next, limit: .max).filter { $0.kind == .accessRequested }
    }
    // The prompted request, then at most two records a minute of those that asked nobody.
    let recorded = try requests().count
    #expect(recorded <= 5, "\(recorded) records")
    var later = StoreOptions(durability: .noSync)
    later.clockSkew = 60 * 60_000_000
    #expect(try Store.open(at: directory.storePath, options: later).flushEndedTallies())
    let counts = try requests().map { record -> Int in
      guard case .unsigned(let count)? = try namedFields(record)["count"] else { return 1 }
      return Int(count)
    }
    #expect(counts.reduce(0, +) == 50, "\(counts)")
    let history = try PrivacyAudit(store: store).history(client: PrivacyFixture.planner)
    #expect(history.filter { $0.kind == .accessRequested }.map { $0.count ?? 1 }.reduce(0, +) == 50)
    #expect(try store.verify().isIntact)
  }

  @Test func aRequestWithoutItsUsageDescriptionIsDeniedAndRecorded() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store, usage: [.calendarsWriteOnly: "Adds bookings."])
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let prompter = ScriptedPrompter(.allow)
      #expect(
        throws: StoreError.access(.missingUsageDescription(client: PrivacyFixture.planner, usage: "calendars-full"))
      ) { try app.requestFullAccess(to: .calendars, prompter: prompter) }
      #expect(prompter.asked.isEmpty)
      let records = try fixture.lastRecords(2)
      #expect(records.map(\.kind) == [.accessRequested, .accessDecided])
      #expect(records[1].fields["reason"] == .unsigned(UInt64(DecisionReason.missingUsageDescription.rawValue)))
      #expect(try app.authorizationStatus(for: .calendars) == .denied)
      #expect(
        throws: StoreError.access(.levelNotAvailable(.reminders, .writeOnly))
      ) { try app.requestWriteOnlyAccess(to: .reminders, prompter: prompter) }
    }
  }

  @Test func writeOnlySeesNothingAndMayOnlyAdd() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow)) == .writeOnly)
      let visible = try app.calendars(for: .events)
      #expect(visible.map(\.title) == ["Calendar"], "one virtual calendar")
      #expect(try app.event(withID: fixture.existing.id) == nil)
      #expect(try app.events(inCalendar: fixture.calendar.id).isEmpty)
      let week = EventPredicate(start: utc(2026, 5, 1), end: utc(2026, 5, 31))
      #expect(try app.events(matching: week).isEmpty)
      let added = try app.save(fixture.newEvent(), span: .thisEvent)
      #expect(try fixture.owner.event(withID: added.id)?.title == "Booked")
      var changed = added
      changed.title = "Changed"
      #expect(throws: StoreError.self) { try app.save(changed, span: .thisEvent) }
      #expect(throws: StoreError.self) { try app.remove(added, span: .thisEvent) }
      #expect(try fixture.owner.event(withID: added.id)?.title == "Booked")
      #expect(try fixture.owner.events(matching: week).count == 2)
    }
  }

  @Test func writeOnlyAddsOnlyToTheCalendarBehindItsVirtualCalendar() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      // "Work" sorts first: it is the calendar for new events; "Zulu" is writable too.
      let other = try fixture.owner.save(EventCalendar(title: "Zulu"))
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow)) == .writeOnly)
      let virtual = try #require(try app.calendars(for: .events).first)
      #expect(virtual.id == fixture.calendar.id)
      // Another calendar, and one that does not exist, are refused alike: nothing tells the app
      // which calendars exist.
      for calendar in [other.id, ObjectID.random()] {
        var elsewhere = fixture.newEvent("Elsewhere")
        elsewhere.calendarID = calendar
        #expect(
          throws: StoreError.access(
            .accessDenied(
              client: PrivacyFixture.planner, service: .calendars, status: .writeOnly,
              operation: "add an event to a calendar other than the one for new events"))
        ) { try app.save(elsewhere, span: .thisEvent) }
      }
      // One refused event refuses the batch.
      var elsewhere = fixture.newEvent("Elsewhere")
      elsewhere.calendarID = other.id
      #expect(throws: StoreError.self) { try app.save([fixture.newEvent("Here"), elsewhere], span: .thisEvent) }
      #expect(try fixture.owner.events(inCalendar: other.id).isEmpty)
      #expect(try fixture.owner.events(inCalendar: fixture.calendar.id).map(\.title) == ["Review"])
      var here = fixture.newEvent("Here")
      here.calendarID = virtual.id
      _ = try app.save(here, span: .thisEvent)
      #expect(try fixture.owner.events(inCalendar: fixture.calendar.id).map(\.title).sorted() == ["Here", "Review"])
      // With full access, any writable calendar.
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let upgraded = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try upgraded.save(elsewhere, span: .thisEvent)
      #expect(try fixture.owner.events(inCalendar: other.id).map(\.title) == ["Elsewhere"])
    }
  }

  @Test func writeOnlyIsUpgradedByOneMorePromptOnce() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let prompter = ScriptedPrompter(.allow, .deny, .allow)
      #expect(try app.requestWriteOnlyAccess(prompter: prompter) == .writeOnly)
      #expect(try app.requestFullAccess(to: .calendars, prompter: prompter) == .writeOnly, "the person declines")
      #expect(prompter.asked.map(\.isUpgrade) == [false, true])
      let decided = try #require(try fixture.lastRecords(1).first)
      #expect(decided.kind == .accessDecided)
      #expect(decided.fields["reason"] == .unsigned(UInt64(DecisionReason.upgrade.rawValue)))
      #expect(try app.requestFullAccess(to: .calendars, prompter: prompter) == .writeOnly)
      #expect(prompter.asked.count == 2, "the upgrade is asked once")

      try fixture.owner.privacySettings().resetAccess(client: PrivacyFixture.planner)
      let fresh = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try fresh.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow)) == .writeOnly)
      #expect(try fresh.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow)) == .fullAccess)
    }
  }

  @Test func aPolicyRestrictionOverridesThePersonUntilLifted() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow)) == .fullAccess)
      try fixture.owner.privacySettings().restrict(PrivacyFixture.planner, service: .calendars, policy: "school")
      let restricted = try #require(try fixture.lastRecords(1).first)
      #expect(restricted.principal == .policy("school"))
      #expect(restricted.fields["previousStatus"] == .unsigned(UInt64(AuthorizationStatus.fullAccess.rawValue)))
      #expect(
        throws: StoreError.access(.restrictedByPolicy(client: PrivacyFixture.planner, service: .calendars))
      ) { try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars) }
      let later = try fixture.owner.session(for: PrivacyFixture.planner)
      let prompter = ScriptedPrompter(.allow)
      #expect(try later.requestFullAccess(to: .calendars, prompter: prompter) == .restricted)
      #expect(prompter.asked.isEmpty)
      #expect(
        try fixture.owner.privacySettings().liftRestriction(
          PrivacyFixture.planner, service: .calendars, policy: "school") == .fullAccess)
      #expect(
        throws: StoreError.access(.notRestricted(client: PrivacyFixture.planner, service: .calendars))
      ) {
        try fixture.owner.privacySettings().liftRestriction(
          PrivacyFixture.planner, service: .calendars, policy: "school")
      }
    }
  }

  @Test func aResetReturnsEveryClientToNotDeterminedInOneTransaction() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.register(
        Client(id: "com.example.notes", name: "Notes", usageDescriptions: [.remindersFull: "Lists."]))
      let planner = try fixture.owner.session(for: PrivacyFixture.planner)
      let notes = try fixture.owner.session(for: "com.example.notes")
      _ = try planner.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
      _ = try notes.requestFullAccess(to: .reminders, prompter: ScriptedPrompter(.deny))
      let before = try store.head().position
      #expect(try fixture.owner.privacySettings().resetAccess() == 2)
      let records = try fixture.lastRecords(2)
      #expect(records.allSatisfy { $0.kind == .accessDecided && $0.fields["status"] == .unsigned(0) })
      #expect(try store.head().position == before.next.next)
      #expect(try fixture.owner.authorizationStatus(for: .reminders, client: "com.example.notes") == .notDetermined)
      let prompter = ScriptedPrompter(.allow)
      let again = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try again.requestFullAccess(to: .calendars, prompter: prompter) == .fullAccess)
      #expect(prompter.asked.count == 1, "asked again after a reset")
    }
  }

  @Test func onlyTheOwnerManagesClientsAndAnUnknownClientHasNoSession() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(throws: StoreError.self) { try app.register(Client(id: "com.evil", name: "Evil")) }
      // An app's session cannot obtain the person's settings at all, so none of their verbs.
      #expect(throws: StoreError.access(.ownerOnly("change privacy settings"))) { try app.privacySettings() }
      #expect(try fixture.owner.authorizationStatus(for: .calendars, client: PrivacyFixture.planner) != .fullAccess)
      #expect(throws: StoreError.access(.clientNotRegistered("com.unknown"))) {
        try fixture.owner.session(for: "com.unknown")
      }
      #expect(throws: StoreError.access(.invalidClientID(""))) { try fixture.owner.register(Client(id: "", name: "x")) }
    }
  }
}
