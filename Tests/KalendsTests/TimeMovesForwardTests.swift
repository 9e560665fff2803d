import Kalends
import KalendsTestSupport
import Testing

@Suite("Time moves forward in the log")
struct TimeMovesForwardTests {
  /// Two handles on one store, as two processes: one whose clock is `skew` ahead.
  func stores(skew: Int64) throws -> (directory: TemporaryDirectory, correct: Store, ahead: Store) {
    let directory = TemporaryDirectory()
    let correct = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
    var options = StoreOptions(durability: .noSync)
    options.clockSkew = skew
    return (directory, correct, try Store.open(at: directory.storePath, options: options))
  }

  static let day: Int64 = 86_400 * 1_000_000

  @Test func aRecordIsNeverStampedEarlierThanTheOneBeforeItWithinTheTolerance() throws {
    // A clock a minute ahead (within the five tolerated): the correct writer after it takes its time.
    let (directory, correct, ahead) = try stores(skew: 60 * 1_000_000)
    try withExtendedLifetime(directory) {
      try EventStore(store: ahead).save(EventCalendar(title: "From a clock a minute ahead"))
      let skewed = try #require(try correct.lastRecords(1).first).header.timestamp
      try EventStore(store: correct).save(EventCalendar(title: "From a correct clock"))
      let next = try #require(try correct.lastRecords(1).first).header.timestamp
      #expect(next >= skewed, "stamped \(next), after a record stamped \(skewed)")
      let report = try correct.verify()
      #expect(report.isIntact && report.timestampAnomalyCount == 0, "\(report.timestampAnomalies)")
    }
  }

  /// The review's finding: one record stamped a day ahead by a wrong clock stamped every later
  /// record with that time. A clock set ahead now stamps its own records wrong, no others; verify
  /// names them alone, and the audit lets none shadow a decision made after it.
  @Test func aRecordStampedFarAheadStampsNoRecordAfterIt() throws {
    let (directory, correct, ahead) = try stores(skew: Self.day)
    try withExtendedLifetime(directory) {
      let owner = EventStore(store: correct)
      try owner.register(Client(id: "com.example.planner", name: "Planner"))
      try EventStore(store: ahead).privacySettings().setAccess(
        .fullAccess, for: "com.example.planner", service: .calendars)
      let skewed = try #require(try correct.lastRecords(1).first)
      try owner.privacySettings().setAccess(.denied, for: "com.example.planner", service: .calendars)
      let next = try #require(try correct.lastRecords(1).first)
      #expect(next.header.timestamp < skewed.header.timestamp, "the correct writer keeps its own time")
      #expect(next.header.timestamp.rawValue <= Timestamp.now().rawValue)
      let report = try correct.verify()
      #expect(report.isIntact)
      #expect(report.timestampAnomalies.map(\.position) == [skewed.position], "\(report.timestampAnomalies)")
      #expect(report.timestampAnomalies.map(\.kind) == [.future])
      // Now and at the head, the denial made after the grant is in force; a day and more ahead, too.
      let audit = PrivacyAudit(store: correct)
      for instant in [nil, Timestamp.now(), Timestamp(rawValue: Timestamp.now().rawValue + 2 * Self.day)] {
        let state = try #require(
          try audit.state(at: instant).first { $0.client == "com.example.planner" && $0.service == .calendars })
        #expect(state.status == .denied, "at \(String(describing: instant))")
        #expect(state.decision == next.position)
      }
      #expect(try audit.whoCan(.calendars).isEmpty)
    }
  }

  @Test func aLogWithCorrectClocksHasNoAnomalies() throws {
    try withStore { store, _ in
      for index in 0..<20 { try EventStore(store: store).save(EventCalendar(title: "Calendar \(index)")) }
      let report = try store.verify()
      #expect(report.isIntact && report.timestampAnomalies.isEmpty && report.timestampAnomalyCount == 0)
    }
  }

  @Test func aGrantStampedAheadOfTheClockIsInForceAndTheAuditAtTheHeadListsIt() throws {
    let (directory, correct, ahead) = try stores(skew: 4 * 365 * Self.day)
    try withExtendedLifetime(directory) {
      let owner = EventStore(store: correct)
      try owner.register(Client(id: "com.example.planner", name: "Planner"))
      try EventStore(store: ahead).privacySettings().setAccess(
        .fullAccess, for: "com.example.planner", service: .calendars)
      // In force: the app reads.
      let app = try owner.session(for: "com.example.planner")
      #expect(try app.authorizationStatus(for: .calendars) == .fullAccess)
      let audit = PrivacyAudit(store: correct)
      #expect(try audit.whoCan(.calendars).map(\.client) == ["com.example.planner"], "the head counts every record")
      #expect(try audit.whoCan(.calendars, at: .now()).isEmpty, "at this machine's instant the grant lies ahead")
      #expect(try correct.verify().timestampAnomalies.map(\.kind) == [.future])
    }
  }
}
