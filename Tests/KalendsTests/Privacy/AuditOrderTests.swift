import Foundation
import Kalends
import KalendsTestSupport
import Testing

/// The audit's history keeps the order of what happened: a minute's later refusals, counted and
/// appended once the minute is over, come before the grant that followed them in that minute.
@Suite("Privacy: the history in the order things happened")
struct AuditOrderTests {
  @Test func refusalsCountedInAMinuteComeBeforeTheGrantThatFollowedThem() throws {
    let directory = TemporaryDirectory()
    // This store's clock stands five seconds into a minute.
    var options = StoreOptions(durability: .noSync)
    let now = Timestamp.now().rawValue
    options.clockSkew = (60_000_000 - now % 60_000_000) + 5_000_000
    let store = try Store.create(at: directory.storePath, options: options)
    let fixture = try PrivacyFixture(store)
    try fixture.owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
    let app = try fixture.owner.session(for: PrivacyFixture.planner)
    // Refused three times (the first recorded at once, the others counted), then granted.
    for _ in 0..<3 {
      #expect(throws: StoreError.self) { try app.events(inCalendar: fixture.calendar.id) }
    }
    try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
    // A write of another process after the minute appends the count, after the grant in the log.
    var later = options
    later.clockSkew += 70_000_000
    try EventStore(store: try Store.open(at: directory.storePath, options: later))
      .save(EventCalendar(title: "A write after the minute"))

    let history = try PrivacyAudit(store: store).history(client: PrivacyFixture.planner)
      .filter { [.accessAttemptRefused, .accessDecided].contains($0.kind) }
    let byPosition = history.sorted { $0.position < $1.position }
    #expect(
      byPosition.map(\.kind) == [.accessDecided, .accessAttemptRefused, .accessDecided, .accessAttemptRefused],
      "the log's order: the count of the later refusals comes after the grant")
    #expect(
      history.map(\.kind) == [.accessDecided, .accessAttemptRefused, .accessAttemptRefused, .accessDecided],
      "\(history.map { ($0.kind, $0.count ?? 0, $0.occurred) })")
    #expect(history.map(\.status) == [.denied, .denied, .denied, .fullAccess])
    let counted = history[2]
    #expect(counted.count == 2 && counted.occurred < history[3].timestamp && counted.occurred > history[1].timestamp)
    #expect(counted.timestamp > history[3].timestamp, "recorded after the grant")
  }
}
