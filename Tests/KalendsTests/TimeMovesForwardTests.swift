import Kalends
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

  @Test func aRecordIsNeverStampedEarlierThanTheOneBeforeIt() throws {
    let (directory, correct, ahead) = try stores(skew: Self.day)
    try withExtendedLifetime(directory) {
      try EventStore(store: ahead).save(EventCalendar(title: "From a clock a day ahead"))
      let skewed = try #require(try correct.lastRecords(1).first).header.timestamp
      try EventStore(store: correct).save(EventCalendar(title: "From a correct clock"))
      let next = try #require(try correct.lastRecords(1).first).header.timestamp
      #expect(next >= skewed, "stamped \(next), after a record stamped \(skewed)")
      let report = try correct.verify()
      #expect(report.isIntact)
      #expect(report.timestampAnomalies.map(\.kind) == [.future, .future], "\(report.timestampAnomalies)")
      #expect(report.timestampAnomalyCount == 2)
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
      try EventStore(store: ahead).setAccess(.fullAccess, for: "com.example.planner", service: .calendars)
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
