import Foundation
import KalendsTestSupport
import Testing

/// The short runs of `tools/crash-harness`; the long ones are run by hand (docs/crash-safety.md).
@Suite("Crash harness", .serialized)
struct CrashHarnessTests {
  @Test func writersKilledAtRandomMomentsLoseNoAcknowledgedCommand() throws {
    let run = try CrashHarness.run(["--kills", "14", "--max-delay-ms", "900", "--fresh-every", "7", "--seed", "3"])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.summary["kills"] as? Int == 14)
    #expect(run.summary["lost"] as? Int == 0)
    #expect(run.summary["partial"] as? Int == 0)
    #expect(run.summary["verifyFailures"] as? Int == 0)
    #expect((run.summary["acknowledged"] as? Int ?? 0) > 14, "the writers must get work done between kills")
  }

  @Test func concurrentWritersAndReadersInSeveralProcessesLoseNothing() throws {
    let run = try CrashHarness.run([
      "--concurrent", "--processes", "2", "--threads", "2", "--seconds", "6", "--initial-map-size", "65536",
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.summary["lost"] as? Int == 0)
    #expect(run.summary["unattributed"] as? Int == 0)
    #expect((run.summary["acknowledged"] as? Int ?? 0) > 20)
    #expect((run.summary["counter"] as? Int ?? 0) > 0)
    let maps = try #require(run.summary["writerMapBytes"] as? [[Int]])
    #expect(maps.count == 2)
    #expect(maps.contains { $0[1] > $0[0] }, "the writers grew the map while others read: \(maps)")
    #expect(run.summary["backupVerified"] as? Bool == true)
  }
}
