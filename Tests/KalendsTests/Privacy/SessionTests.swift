import Kalends
import Testing

@Suite("Privacy: sessions and refusals")
struct SessionTests {
  @Test func aChangeFromOutsideTheAppEndsItsOpenSessions() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
      #expect(try app.event(withID: fixture.existing.id) != nil, "its own prompt does not end the session")
      try fixture.owner.setAccess(.denied, for: PrivacyFixture.planner, service: .reminders)
      let changedAt = try store.head().position
      let ended = StoreError.access(.sessionTerminated(client: PrivacyFixture.planner, at: changedAt))
      #expect(throws: ended) { try app.event(withID: fixture.existing.id) }
      #expect(throws: ended) { try app.save(fixture.newEvent(), span: .thisEvent) }
      #expect(throws: ended) { try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow)) }
      let next = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try next.event(withID: fixture.existing.id) != nil, "a new session works")
      try fixture.owner.resetAccess(client: PrivacyFixture.planner, service: .calendars)
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
    try other.setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
    #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) }
  }

  @Test func refusedCallsAreCoalescedPerServiceAndMinute() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let before = try store.head().position
      do {
        let app = try fixture.owner.session(for: PrivacyFixture.planner)
        for _ in 0..<50 { #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) } }
        #expect(throws: StoreError.self) { try app.reminders() }
        let written = try store.head().position.rawValue - before.rawValue
        #expect(written <= 3, "50 refusals wrote \(written) records")
      }
      // The session has ended: what it counted is recorded.
      let refusals = try store.records(from: before.next, limit: 100).filter { $0.kind == .accessAttemptRefused }
      let counts = try refusals.map { record -> (UInt64, UInt64) in
        let fields = try namedFields(record)
        guard case .unsigned(let service) = fields["service"], case .unsigned(let count) = fields["count"] else {
          return (0, 0)
        }
        return (service, count)
      }
      let calendars = counts.filter { $0.0 == 1 }.map(\.1).reduce(0, +)
      let reminders = counts.filter { $0.0 == 2 }.map(\.1).reduce(0, +)
      #expect(calendars == 50 && reminders == 1, "\(counts)")
      #expect(refusals.count <= 4)
    }
  }
}
