import Testing

@testable import Kalends

/// docs/privacy.md's table: what an app may call and sees by the system it was built for.
@Suite("Privacy: apps built for older systems")
struct OlderSystemsTests {
  static let app = "com.example.legacy"

  /// A store with a calendar holding one event, and `app` registered as built for iOS `sdk` with
  /// `usage`.
  func withApp(
    sdk: Int, usage: [Client.Usage: String], _ body: (PrivacyFixture, EventStore) throws -> Void
  ) throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let registered = try fixture.owner.register(
        Client(id: Self.app, name: "Legacy", usageDescriptions: usage, sdk: sdk))
      #expect(registered.sdk == min(sdk, Client.currentSDK))
      try body(fixture, try fixture.owner.session(for: Self.app))
    }
  }

  @Test func anAppBuiltForIOS16AsksWithRequestAccessAndGetsTheWriteOnlyPromptReportedAsGranted() throws {
    try withApp(sdk: 16, usage: [.calendars: "Adds your bookings."]) { fixture, app in
      let prompter = ScriptedPrompter(.allow)
      #expect(try app.requestAccess(to: .calendars, prompter: prompter))
      let asked = try #require(prompter.asked.first)
      #expect(asked.level == .writeOnly && asked.usageDescription == "Adds your bookings.")
      // The person and the audit see what is stored; the app sees iOS 16's one kind of grant.
      #expect(try fixture.owner.authorizationStatus(for: .calendars, client: Self.app) == .writeOnly)
      #expect(try app.authorizationStatus(for: .calendars) == .fullAccess)
      #expect(try app.events(inCalendar: fixture.calendar.id).isEmpty, "write-only access reads nothing")
      #expect(try fixture.store.lastRecords(1).first?.kind == .accessAttemptRefused)
      // Asked again: the stored decision, no prompt.
      #expect(try app.requestAccess(to: .calendars, prompter: prompter))
      #expect(prompter.asked.count == 1)
      // The iOS 17 calls do not exist for it.
      #expect(
        throws: StoreError.access(.requestUnavailable(client: Self.app, sdk: 16, api: "requestFullAccessToEvents"))
      ) {
        try app.requestFullAccess(to: .calendars, prompter: prompter)
      }
    }
  }

  @Test func aDeniedOldAppIsNotGrantedAndItsRemindersAskForFullAccess() throws {
    try withApp(sdk: 9, usage: [.calendars: "Agenda.", .reminders: "Tasks."]) { fixture, app throws in
      #expect(try !app.requestAccess(to: .calendars, prompter: ScriptedPrompter(.deny)))
      #expect(try app.authorizationStatus(for: .calendars) == .denied)
      let prompter = ScriptedPrompter(.allow)
      #expect(try app.requestAccess(to: .reminders, prompter: prompter))
      #expect(prompter.asked.first?.level == .full && prompter.asked.first?.usageDescription == "Tasks.")
      #expect(try fixture.owner.authorizationStatus(for: .reminders, client: Self.app) == .fullAccess)
    }
  }

  @Test func anAppBuiltForIOS17GetsAnErrorFromRequestAccessAndNoPrompt() throws {
    try withApp(sdk: 17, usage: [.calendarsFull: "Agenda."]) { fixture, app in
      let head = try fixture.store.head()
      let prompter = ScriptedPrompter(.allow)
      #expect(throws: StoreError.access(.requestUnavailable(client: Self.app, sdk: 17, api: "requestAccess(to:)"))) {
        try app.requestAccess(to: .calendars, prompter: prompter)
      }
      #expect(prompter.asked.isEmpty)
      #expect(try fixture.store.head() == head, "nothing asked, nothing recorded")
      #expect(try app.requestFullAccess(to: .calendars, prompter: prompter) == .fullAccess)
    }
  }

  @Test func anAppBuiltForIOS5HasNoRequestCallAtAll() throws {
    try withApp(sdk: 5, usage: [.calendars: "Agenda.", .contacts: "People."]) { _, app throws in
      let prompter = ScriptedPrompter(.allow)
      #expect(throws: StoreError.self) { try app.requestAccess(to: .calendars, prompter: prompter) }
      #expect(throws: StoreError.self) { try app.requestFullAccess(to: .contacts, prompter: prompter) }
      #expect(throws: StoreError.self) { try app.requestWriteOnlyAccess(prompter: prompter) }
      #expect(prompter.asked.isEmpty)
      #expect(try app.authorizationStatus(for: .calendars) == .notDetermined)
    }
  }

  /// A request without the key its system needs is denied without a prompt, and recorded.
  @Test(arguments: [(16, Client.Usage.calendarsFull), (17, Client.Usage.calendars)])
  func theUsageDescriptionARequestNeedsIsTheOneOfItsSystem(sdk: Int, only usage: Client.Usage) throws {
    try withApp(sdk: sdk, usage: [usage: "Agenda."]) { fixture, app in
      let prompter = ScriptedPrompter(.allow)
      #expect(throws: StoreError.self) {
        if sdk < 17 {
          _ = try app.requestAccess(to: .calendars, prompter: prompter)
        } else {
          _ = try app.requestFullAccess(to: .calendars, prompter: prompter)
        }
      }
      #expect(prompter.asked.isEmpty)
      #expect(try fixture.owner.authorizationStatus(for: .calendars, client: Self.app) == .denied)
      let decided = try #require(try fixture.store.lastRecords(1).first)
      #expect(decided.kind == .accessDecided && decided.principal == .system)
    }
  }

  @Test func theSystemAnAppWasBuiltForIsRegisteredAndSurvivesARebuild() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      #expect(throws: StoreError.self) { try owner.register(Client(id: Self.app, name: "Old", sdk: 4)) }
      try owner.register(Client(id: Self.app, name: "Old", usageDescriptions: [.reminders: "Tasks."], sdk: 12))
      _ = try store.rebuildProjections()
      let client = try #require(try owner.client(withID: Self.app))
      #expect(client.sdk == 12 && client.usageDescriptions == [.reminders: "Tasks."])
      try owner.register(Client(id: Self.app, name: "Old", sdk: 18))
      #expect(try owner.client(withID: Self.app)?.sdk == Client.currentSDK)
    }
  }

  /// The records after `head`: kinds, and whether each request was implicit.
  func requests(after head: LogHead, in store: Store) throws -> [(RecordKind, Bool?)] {
    try store.records(from: head.position.next, limit: .max).map { record in
      (record.kind, record.kind == .accessRequested ? (try namedFields(record)["implicit"]) == .bool(true) : nil)
    }
  }

  @Test func anAppBuiltForIOS5IsAskedOnItsFirstUseAndTheRequestIsRecordedAsImplicit() throws {
    try withApp(sdk: 5, usage: [.calendars: "Shows your day."]) { fixture, _ in
      let prompter = ScriptedPrompter(.allow)
      let app = try fixture.owner.session(for: Self.app, prompter: prompter)
      let head = try fixture.store.head()
      let events = try app.events(inCalendar: fixture.calendar.id)
      #expect(events.map(\.id) == [fixture.existing.id])
      let asked = try #require(prompter.asked.first)
      #expect(asked.level == .full && asked.usageDescription == "Shows your day." && !asked.isUpgrade)
      let recorded = try requests(after: head, in: fixture.store)
      // The implicit request and its decision, then the read it let through.
      #expect(recorded.map(\.0) == [.accessRequested, .accessDecided, .dataRead])
      #expect(recorded.first?.1 == true, "the request is recorded as implicit")
      _ = try app.events(inCalendar: fixture.calendar.id)
      #expect(prompter.asked.count == 1, "asked once")
      #expect(try app.authorizationStatus(for: .calendars) == .fullAccess)
    }
  }

  @Test func anIOS5AppThePersonDeniesIsRefusedAndNeverAskedAgain() throws {
    try withApp(sdk: 5, usage: [.calendars: "Shows your day."]) { fixture, unprompted in
      #expect(throws: StoreError.self) { try unprompted.events(inCalendar: fixture.calendar.id) }
      #expect(try fixture.owner.authorizationStatus(for: .calendars, client: Self.app) == .notDetermined)
      let prompter = ScriptedPrompter(.deny)
      let app = try fixture.owner.session(for: Self.app, prompter: prompter)
      let booked = fixture.newEvent()
      #expect(throws: StoreError.self) { try app.save(booked, span: .thisEvent) }
      #expect(prompter.asked.count == 1, "a write is a first use too")
      #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) }
      #expect(prompter.asked.count == 1)
      #expect(try fixture.owner.event(withID: booked.id) == nil)
    }
  }

  @Test func aWriteOnlyAppsFirstReadAsksOnceForTheUpgrade() throws {
    for answer in [ConsentAnswer.allow, .deny] {
      try withApp(sdk: 17, usage: [.calendarsFull: "Agenda.", .calendarsWriteOnly: "Bookings."]) { fixture, plain in
        #expect(try plain.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow)) == .writeOnly)
        let prompter = ScriptedPrompter(answer)
        let app = try fixture.owner.session(for: Self.app, prompter: prompter)
        let head = try fixture.store.head()
        let seen = try app.events(inCalendar: fixture.calendar.id)
        let asked = try #require(prompter.asked.first)
        #expect(asked.isUpgrade && asked.level == .full && asked.usageDescription == "Agenda.")
        #expect(try requests(after: head, in: fixture.store).first?.1 == true)
        if answer == .allow {
          #expect(seen.map(\.id) == [fixture.existing.id], "granted: the read goes on with full access")
          #expect(try app.authorizationStatus(for: .calendars) == .fullAccess)
        } else {
          #expect(seen.isEmpty, "denied: write-only, as before")
          _ = try app.events(inCalendar: fixture.calendar.id)
          #expect(prompter.asked.count == 1, "never asked again")
        }
      }
    }
  }

  @Test func withoutTheFullAccessDescriptionAWriteOnlyAppsReadAsksNothing() throws {
    try withApp(sdk: 17, usage: [.calendarsWriteOnly: "Bookings."]) { fixture, plain in
      #expect(try plain.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow)) == .writeOnly)
      let prompter = ScriptedPrompter(.allow)
      let app = try fixture.owner.session(for: Self.app, prompter: prompter)
      let head = try fixture.store.head()
      #expect(try app.events(inCalendar: fixture.calendar.id).isEmpty)
      #expect(prompter.asked.isEmpty)
      #expect(try requests(after: head, in: fixture.store).map(\.0) == [.accessAttemptRefused])
    }
  }
}
