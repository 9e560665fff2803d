import Foundation
import Kalends
import KalendsTestSupport
import Testing

/// What apps read with their access (`dataRead`): the first read of a minute, and of each calendar
/// in it, is in the log before the answer is returned; the minute's other reads are counted and
/// join it; a refused read is a refusal and no use; the owner's reads are not an app's.
@Suite("Privacy: the reads of apps are recorded")
struct AccessUseTests {
  static let evidence = IdentifiedSessionTests.evidence

  static func dataReads(_ store: Store, after position: LogPosition) throws -> [LogRecord] {
    try store.records(from: position.next, limit: .max).filter { $0.kind == .dataRead }
  }

  @Test func theFirstReadOfAMinuteIsInTheLogBeforeItReturnsWithTheCalendarItTouched() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let health = try fixture.owner.save(EventCalendar(title: "Health"))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let before = try store.head().position
      #expect(try app.events(inCalendar: fixture.calendar.id).map(\.title) == ["Review"])
      // Nothing else was written: the record is there as the call returns.
      let records = try Self.dataReads(store, after: before)
      try #require(records.count == 1)
      let fields = try namedFields(records[0])
      #expect(records[0].principal == .client(PrivacyFixture.planner))
      #expect(fields["operation"] == .string("read events"))
      #expect(fields["count"] == .unsigned(1))
      #expect(fields["objects"] == .uuid(fixture.calendar.id.description.lowercased()), "\(fields)")
      #expect(fields["status"] == .unsigned(UInt64(AuthorizationStatus.fullAccess.rawValue)))
      // The decision in force is the person's `setAccess`.
      let decision = try PrivacyAudit(store: store).state().first {
        $0.client == PrivacyFixture.planner && $0.service == .calendars
      }?.decision
      #expect(fields["decision"] == decision.map { .unsigned($0.rawValue) })
      // Health was not touched; the audit says so.
      let audit = PrivacyAudit(store: store)
      #expect(try audit.uses(object: health.id).isEmpty)
      #expect(try audit.uses(object: fixture.calendar.id).map(\.count) == [1])
      #expect(try store.verify().isIntact)
    }
  }

  @Test func repeatedReadsAreCountedExactlyAndANewCalendarIsRecordedAtOnce() throws {
    try withStore { store, _ in
      // The planner registered with a code requirement its process (the evidence) satisfies.
      let fixture = try IdentifiedSessionTests.fixture(store)
      let health = try fixture.owner.save(EventCalendar(title: "Health"))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner, identifiedBy: Self.evidence)
      let before = try store.head().position
      for _ in 0..<25 { _ = try app.events(inCalendar: fixture.calendar.id) }
      // The minute's later reads of Work repeat what the log holds: counted, not yet written.
      #expect(try Self.dataReads(store, after: before).count == 1)
      // Health is new in this minute: recorded before the answer, without waiting for the minute.
      _ = try app.events(inCalendar: health.id)
      let afterHealth = try Self.dataReads(store, after: before)
      #expect(afterHealth.count == 2)
      #expect(try namedFields(afterHealth[1])["objects"] == .uuid(health.id.description.lowercased()))
      // The process closing the store writes what it counted.
      try store.flushUses()
      let uses = try PrivacyAudit(store: store).uses(client: PrivacyFixture.planner)
      #expect(uses.map(\.count).reduce(0, +) == 26, "\(uses)")
      #expect(uses.allSatisfy { $0.identification == Self.evidence })
      #expect(Set(uses.flatMap(\.objects)) == [fixture.calendar.id, health.id])
      for record in try Self.dataReads(store, after: before) {
        #expect(record.identification == Self.evidence)
      }
      #expect(try store.verify().isIntact)
    }
  }

  @Test func theCountsOfAnEndedMinuteReachTheLogWithTheNextWrite() throws {
    let directory = TemporaryDirectory()
    // This store's clock stands three seconds before the end of a minute.
    var options = StoreOptions(durability: .noSync)
    let now = Timestamp.now().rawValue
    options.clockSkew = (60_000_000 - now % 60_000_000) - 3_000_000
    let store = try Store.create(at: directory.storePath, options: options)
    let fixture = try PrivacyFixture(store)
    try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
    let app = try fixture.owner.session(for: PrivacyFixture.planner)
    let before = try store.head().position
    for _ in 0..<5 { _ = try app.event(withID: fixture.existing.id) }
    #expect(try Self.dataReads(store, after: before).count == 1)
    #expect(try store.flushEndedTallies() == false, "the minute has not ended")
    store.advanceClock(by: 4_000_000)
    // The first write after the minute (the server's timer, here) appends the count.
    #expect(try store.flushEndedTallies())
    let records = try Self.dataReads(store, after: before)
    let counts = try records.map { record -> UInt64 in
      guard case .unsigned(let count)? = try namedFields(record)["count"] else { return 0 }
      return count
    }
    #expect(counts == [1, 4], "\(counts)")
    #expect(try store.flushEndedTallies() == false, "nothing is left")
    #expect(try store.verify().isIntact)
  }

  @Test func aRefusedReadIsARefusalAndNoUse() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let before = try store.head().position
      #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) }
      #expect(throws: StoreError.self) { try app.calendars() }
      #expect(try Self.dataReads(store, after: before).isEmpty)
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, since: before) == 2)
      // Write-only access reads nothing: a refusal, no use.
      try fixture.owner.privacySettings().setAccess(.writeOnly, for: PrivacyFixture.planner, service: .calendars)
      let writer = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try writer.events(inCalendar: fixture.calendar.id).isEmpty)
      try store.flushUses()
      #expect(try Self.dataReads(store, after: before).isEmpty)
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, since: before) == 3)
    }
  }

  @Test func theOwnersReadsAreNotAnAppsAndAQueryNamesTheCalendarsItSearched() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let health = try fixture.owner.save(EventCalendar(title: "Health"))
      let before = try store.head().position
      _ = try fixture.owner.events(inCalendar: fixture.calendar.id)
      #expect(try Self.dataReads(store, after: before).isEmpty)
      // An app limited to Work queries every calendar it may see: Work, and Health never.
      try fixture.owner.privacySettings().setCalendarAccess(
        for: PrivacyFixture.planner, calendars: [fixture.calendar.id])
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let mark = try store.head().position
      let week = EventPredicate(
        start: fixture.existing.start!.wallClockSeconds - 86_400, end: fixture.existing.start!.wallClockSeconds + 86_400
      )
      #expect(try app.events(matching: week).map(\.title) == ["Review"])
      let uses = try PrivacyAudit(store: store).uses(client: PrivacyFixture.planner)
      #expect(uses.map(\.operation) == ["query events"], "\(uses)")
      #expect(uses.first?.objects == [fixture.calendar.id])
      #expect(try PrivacyAudit(store: store).uses(object: health.id).isEmpty)
      #expect(try Self.dataReads(store, after: mark).count == 1)
    }
  }

  @Test func aReadThatCannotBeRecordedIsNotAnswered() throws {
    let directory = TemporaryDirectory()
    let store = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
    let fixture = try PrivacyFixture(store)
    try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
    var readOnly = StoreOptions()
    readOnly.readOnly = true
    let app = try EventStore(store: try Store.open(at: directory.storePath, options: readOnly))
      .session(for: PrivacyFixture.planner)
    #expect {
      try app.events(inCalendar: fixture.calendar.id)
    } throws: { error in
      guard case .access(.useNotRecorded(let client, .calendars, _)) = error as? StoreError else { return false }
      return client == PrivacyFixture.planner
    }
  }

  @Test func aChangeNoticeIsAReadOfWhatItTellsRecordedBeforeTheAppHearsIt() async throws {
    try await withStore { store, _ in
      let fixture = try IdentifiedSessionTests.fixture(store)
      let health = try fixture.owner.save(EventCalendar(title: "Health"))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner, identifiedBy: Self.evidence)
      var stream = app.changes().makeAsyncIterator()
      let event = try fixture.owner.save(
        Event(
          calendarID: health.id, title: "Therapy", start: local(2026, 5, 6, 10), end: local(2026, 5, 6, 11),
          timeZone: "Europe/Berlin"), span: .thisEvent)
      let notice = try #require(try await stream.next())
      #expect(notice.changes[.event(event.id)] == .added)
      // In the log as the notice is returned: which app heard of which calendar, never what.
      let heard = try PrivacyAudit(store: store).uses(client: PrivacyFixture.planner).filter {
        $0.operation == "hear of changes"
      }
      #expect(heard.map(\.objects) == [[health.id]], "\(heard)")
      #expect(heard.first?.identification == Self.evidence)
      #expect(heard.first?.service == .calendars)
    }
  }
}
