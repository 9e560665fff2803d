import Kalends
import KalendsTestSupport
import Testing

@Suite("Privacy: sessions and refusals")
struct SessionTests {
  @Test func aChangeFromOutsideTheAppEndsItsOpenSessions() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
      #expect(try app.event(withID: fixture.existing.id) != nil, "its own prompt does not end the session")
      try fixture.owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .reminders)
      let changedAt = try store.head().position
      let ended = StoreError.access(.sessionTerminated(client: PrivacyFixture.planner, at: changedAt))
      #expect(throws: ended) { try app.event(withID: fixture.existing.id) }
      #expect(throws: ended) { try app.save(fixture.newEvent(), span: .thisEvent) }
      #expect(throws: ended) { try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow)) }
      let next = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try next.event(withID: fixture.existing.id) != nil, "a new session works")
      try fixture.owner.privacySettings().resetAccess(client: PrivacyFixture.planner, service: .calendars)
      #expect(throws: StoreError.self) { try next.event(withID: fixture.existing.id) }
    }
  }

  @Test func aSessionInAnotherStoreHandleIsEndedToo() throws {
    let directory = TemporaryDirectory()
    let options = StoreOptions(durability: .noSync)
    let fixture = try PrivacyFixture(try Store.create(at: directory.storePath, options: options))
    let app = try fixture.owner.session(for: PrivacyFixture.planner)
    _ = try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
    // Another handle on the same directory (as another process would open it) revokes.
    let other = EventStore(store: try Store.open(at: directory.storePath, options: options))
    try other.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
    #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) }
  }

  @Test func aSessionReadsItsOwnRegistrationAndStatusesButNoOtherApps() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.register(Client(id: "com.example.other", name: "Other"))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: "com.example.other", service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try app.authorizationStatus(for: .calendars) == .notDetermined)
      #expect(try app.client(withID: PrivacyFixture.planner)?.name == "Planner")
      let before = try store.head().position
      for attempt in [
        { _ = try app.authorizationStatus(for: .calendars, client: "com.example.other") },
        { _ = try app.client(withID: "com.example.other") }, { _ = try app.clients() },
      ] as [() throws -> Void] {
        #expect {
          try attempt()
        } throws: { error in
          guard case .access(.ownerOnly) = error as? StoreError else { return false }
          return true
        }
      }
      let audit = PrivacyAudit(store: store)
      let logged = try audit.history(client: PrivacyFixture.planner).filter {
        $0.kind == .ownerActionRefused && $0.position > before
      }
      let counted =
        logged.reduce(0) { $0 + ($1.count ?? 0) }
        + (try audit.pendingRefusals(client: PrivacyFixture.planner).filter { $0.service == nil }.reduce(0) {
          $0 + $1.count
        })
      #expect(counted == 3, "every attempt is counted")
    }
  }

  @Test func refusedCallsAreCountedExactlyAcrossSessionsAndStoreHandles() throws {
    let directory = TemporaryDirectory()
    let options = StoreOptions(durability: .noSync)
    let fixture = try PrivacyFixture(try Store.create(at: directory.storePath, options: options))
    let before = try fixture.store.head().position
    // Each handle stands for another process; none of the sessions ends before the counts are read,
    // as after a crash.
    var sessions: [EventStore] = []
    for index in 0..<50 {
      let handle = index.isMultiple(of: 2) ? fixture.store : try Store.open(at: directory.storePath, options: options)
      let app = try EventStore(store: handle).session(for: PrivacyFixture.planner)
      #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) }
      sessions.append(app)
    }
    #expect(throws: StoreError.self) { try sessions[0].reminders() }
    let (logged, pending) = try refusalCounts(fixture.store, since: before)
    let total = logged.merging(pending, uniquingKeysWith: +)
    // The minute may turn during the test: a tally then reaches the log with the next refusal.
    #expect(total == [.calendars: 50, .reminders: 1], "logged \(logged), pending \(pending)")
    let records = try fixture.store.records(from: before.next, limit: 100).filter { $0.kind == .accessAttemptRefused }
    #expect(records.count <= 5, "at most two records per service and minute: \(records.count)")
    withExtendedLifetime(sessions) {}
  }

  @Test func aTallyOfAMinuteThatHasEndedReachesTheLogWithTheNextWriteOfAnyKind() throws {
    let directory = TemporaryDirectory()
    let fixture = try PrivacyFixture(
      try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync)))
    let store = fixture.store
    let before = try store.head().position
    // Refusals counted in a minute ahead of the clock, so that the minute cannot end during the test.
    let minute = RefusalTally.minute(of: .now()) + 100
    for _ in 0..<7 {
      try store.write { txn, appender in
        try RefusalTally.count(
          PrivacyFixture.planner, .calendars, .denied, "read events", minute: minute, meta: store.meta, &txn,
          &appender)
      }
    }
    #expect(try refusalCounts(store, since: before) == ([.calendars: 1], [.calendars: 6]))
    try fixture.owner.save(EventCalendar(title: "A write before the minute ends"))
    #expect(try refusalCounts(store, since: before) == ([.calendars: 1], [.calendars: 6]))
    // Another process, two hours later, writes anything.
    var later = StoreOptions(durability: .noSync)
    later.clockSkew = 120 * 60_000_000
    try EventStore(store: try Store.open(at: directory.storePath, options: later))
      .save(EventCalendar(title: "A write after the minute"))
    #expect(try refusalCounts(store, since: before) == ([.calendars: 7], [:]))
    let last = try #require(try store.records(from: before.next, limit: 100).last { $0.kind == .accessAttemptRefused })
    let fields = try namedFields(last)
    #expect(fields["count"] == .unsigned(6) && fields["minute"] == .signed(minute), "\(fields)")
    #expect(try store.verify().problem == nil)
  }

  /// The refused calls of the planner since `position`, by service: in the log, and counted but
  /// not yet in it.
  func refusalCounts(
    _ store: Store, since position: LogPosition
  ) throws -> (logged: [Service: Int], pending: [Service: Int]) {
    let audit = PrivacyAudit(store: store)
    var logged: [Service: Int] = [:]
    for entry in try audit.history(client: PrivacyFixture.planner)
    where entry.kind == .accessAttemptRefused && entry.position > position {
      logged[entry.service!, default: 0] += entry.count ?? 0
    }
    var pending: [Service: Int] = [:]
    for refusal in try audit.pendingRefusals(client: PrivacyFixture.planner) {
      guard let service = refusal.service else { continue }
      pending[service, default: 0] += refusal.count
    }
    return (logged, pending)
  }
}
