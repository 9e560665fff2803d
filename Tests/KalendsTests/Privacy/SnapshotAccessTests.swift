import Foundation
import Kalends
import Synchronization
import Testing

/// A read is decided in the snapshot it reads from: no revocation can fall between the access check
/// and the data, so what a read returns never includes anything written after a revocation.
@Suite("Privacy: access is checked in the snapshot the data is read from")
struct SnapshotAccessTests {
  /// Rounds of grant, read while revoking, write after the revocation. A reader that checked in one
  /// snapshot and read in a later one leaks the event written after the revocation in a good share
  /// of the rounds.
  static let rounds = 60

  @Test(arguments: [ReadPath.eventsMatching, .eventsInCalendar, .calendars])
  func nothingWrittenAfterARevocationIsEverRead(_ path: ReadPath) throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      // Calendars to list make the work between a check and a read in another snapshot longer.
      for index in 0..<100 { try fixture.owner.save(EventCalendar(title: "Calendar \(index)")) }
      let leaks = Atomic(0)
      let reads = Atomic(0)
      for round in 0..<Self.rounds {
        try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
        let app = try fixture.owner.session(for: PrivacyFixture.planner)
        let marker = "after revocation \(round)"
        let started = Atomic(false)
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
          while true {
            do {
              let seen = try path.read(app, fixture)
              reads.add(1, ordering: .relaxed)
              started.store(true, ordering: .releasing)
              if seen.contains(marker) { leaks.add(1, ordering: .relaxed) }
            } catch {
              started.store(true, ordering: .releasing)
              return
            }
          }
        }
        while !started.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.000_1) }
        // The behaviour under test: the revocation lands at a different point of the read each round.
        Thread.sleep(forTimeInterval: Double(round % 7) * 0.000_1)
        try fixture.owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
        try fixture.owner.save(EventCalendar(title: marker))
        try fixture.owner.save(fixture.newEvent(marker), span: .thisEvent)
        reader.wait()
      }
      #expect(reads.load(ordering: .relaxed) >= Self.rounds, "the reader read in every round")
      #expect(leaks.load(ordering: .relaxed) == 0, "reads that returned what was written after the revocation")
    }
  }

  /// A read path of a client session, returning the titles it saw.
  enum ReadPath: String, CustomTestStringConvertible, Sendable {
    case eventsMatching, eventsInCalendar, calendars

    var testDescription: String { rawValue }

    func read(_ app: EventStore, _ fixture: PrivacyFixture) throws -> [String] {
      switch self {
      case .eventsMatching:
        let window = EventPredicate(
          start: 1_777_000_000, end: 1_779_000_000,
          calendars: [], viewerZone: .utc)
        return try app.events(matching: window).map(\.title)
      case .eventsInCalendar:
        return try app.events(inCalendar: fixture.calendar.id).map(\.title)
      case .calendars:
        return try app.calendars(for: .events).map(\.title)
      }
    }
  }
}
