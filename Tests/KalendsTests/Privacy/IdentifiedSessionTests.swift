import Kalends
import KalendsTestSupport
import Testing

/// Sessions the store server opens for an app it identified: their records say how (record format
/// version 2), and the evidence is checked against the stored registration, not taken on trust.
@Suite("Privacy: records of identified sessions carry their evidence")
struct IdentifiedSessionTests {
  static let digest = [UInt8](repeating: 0x5C, count: 32)
  static let evidence = CallerEvidence(
    uid: 1000, gid: 100, pid: 777, executable: "/usr/bin/agenda", executableSHA256: digest, connection: 0xABCD)

  /// A fixture whose planner app is registered with a code requirement on `/usr/bin/agenda`.
  static func fixture(_ store: Store) throws -> PrivacyFixture {
    let fixture = try PrivacyFixture(store)
    try fixture.owner.register(
      Client(
        id: PrivacyFixture.planner, name: "Planner",
        usageDescriptions: [.calendarsFull: "Shows your agenda.", .calendarsWriteOnly: "Adds bookings."],
        requirement: CodeRequirement(executable: "/usr/bin/agenda", sha256: digest)))
    return fixture
  }

  @Test func evidenceTheRequirementRefusesOpensNoSession() throws {
    try withStore { store, _ in
      let fixture = try Self.fixture(store)
      var other = Self.evidence
      other.executableSHA256 = [UInt8](repeating: 0, count: 32)
      #expect(throws: StoreError.access(.notIdentified(client: PrivacyFixture.planner))) {
        try fixture.owner.session(for: PrivacyFixture.planner, identifiedBy: other)
      }
      try fixture.owner.register(Client(id: "com.example.bare", name: "Bare"))
      #expect(throws: StoreError.access(.notIdentified(client: "com.example.bare"))) {
        try fixture.owner.session(for: "com.example.bare", identifiedBy: Self.evidence)
      }
      let session = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(throws: StoreError.self) { try session.session(for: PrivacyFixture.planner, identifiedBy: Self.evidence) }
    }
  }

  @Test func theLaterRefusalsOfAMinuteKeepTheProcesssEvidenceAndReachTheLogWhenItEnds() throws {
    let directory = TemporaryDirectory()
    let store = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
    let fixture = try Self.fixture(store)
    let session = try fixture.owner.session(for: PrivacyFixture.planner, identifiedBy: Self.evidence)
    for _ in 0..<3 {
      #expect(throws: StoreError.self) { try session.events(inCalendar: fixture.calendar.id) }
    }
    // The server's flush, an hour later: no other write is needed for the minute's count to be
    // stamped and proven, and it names the refused process as the first record of the minute does.
    var later = StoreOptions(durability: .noSync)
    later.clockSkew = 60 * 60_000_000
    let server = try Store.open(at: directory.storePath, options: later)
    #expect(try server.flushEndedTallies())
    #expect(try !server.flushEndedTallies(), "nothing is left to flush")
    let refusals = try store.records(from: 1, limit: .max).filter { $0.kind == .accessAttemptRefused }
    let counts = try refusals.map { record -> UInt64 in
      guard case .unsigned(let count)? = try namedFields(record)["count"] else { return 0 }
      return count
    }
    #expect(counts.reduce(0, +) == 3, "\(counts)")
    #expect(refusals.count >= 2)
    for record in refusals {
      #expect(record.identification == Self.evidence, "\(record.position) v\(record.header.formatVersion)")
      #expect(record.header.formatVersion == 2)
    }
    #expect(try PrivacyAudit(store: store).pendingRefusals().isEmpty)
    #expect(try store.verify().isIntact)
  }

  @Test func theAppsRecordsCarryTheEvidenceAndThePersonsDoNot() throws {
    try withStore { store, _ in
      let fixture = try Self.fixture(store)
      let session = try fixture.owner.session(for: PrivacyFixture.planner, identifiedBy: Self.evidence)
      #expect(session.identification == Self.evidence)
      // A refused read, recorded as the app's.
      #expect(throws: StoreError.self) { try session.events(inCalendar: fixture.calendar.id) }
      // A request answered by the person: the app's request and the person's decision, one transaction.
      #expect(try session.requestFullAccess(to: .calendars, prompter: FixedAnswerPrompter(.allow)) == .fullAccess)
      let saved = try session.save(fixture.newEvent(), span: .thisEvent)

      let records = try store.lastRecords(4)
      let kinds = records.map(\.kind)
      #expect(kinds == [.accessAttemptRefused, .accessRequested, .accessDecided, .eventSaved])
      for record in records {
        // Saves are written in version 3 (content that can be erased), with or without a context.
        let sealed = record.kind == .eventSaved
        if case .client = record.principal {
          #expect(record.header.formatVersion == (sealed ? 3 : 2), "\(record.kind)")
          #expect(record.identification == Self.evidence, "\(record.kind)")
        } else {
          #expect(record.header.formatVersion == 1, "\(record.kind)")
          #expect(record.identification == nil, "\(record.kind)")
        }
      }
      #expect(try session.event(withID: saved.id)?.title == "Booked")

      // The audit shows how each of the app's entries was identified.
      let history = try PrivacyAudit(store: store).history(client: PrivacyFixture.planner)
      let requested = try #require(history.first { $0.kind == .accessRequested })
      #expect(requested.identification == Self.evidence)
      #expect(history.first { $0.kind == .accessDecided }?.identification == nil)

      // Version 2 records verify, replay and prove like the rest.
      #expect(try store.verify().isIntact)
      _ = try store.rebuildProjections()
      #expect(try session.event(withID: saved.id)?.title == "Booked")
      let last = try store.head().position
      let proof = try store.inclusionProof(for: last)
      try proof.check(leafHash: try store.record(at: last).hash, against: try store.treeHead())
    }
  }

  @Test func aSessionOpenedWithoutEvidenceWritesDeclaredRecords() throws {
    try withStore { store, _ in
      let fixture = try Self.fixture(store)
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let session = try fixture.owner.session(for: PrivacyFixture.planner)
      try session.save(fixture.newEvent(), span: .thisEvent)
      let record = try #require(try store.lastRecords(1).first)
      #expect(record.header.formatVersion == 3)
      #expect(record.identification == nil)
    }
  }
}
