import Foundation
import KalendsTestSupport
import Testing

/// The fleet's publisher inside `kalends serve` (`--fleet-nats`), through a real `nats-server`:
/// what the store takes while it serves reaches the stream, and `kalends status` says where the
/// stream stands.
@Suite("kalends serve --fleet-nats: the store server publishes its records")
struct FleetServeTests {
  @Test func theServerPublishesWhatTheStoreTakesAndStatusSaysWhereTheStreamStands() throws {
    let nats = try NATSServer()
    let served = try ServedStore(
      ["--fleet-nats", nats.url, "--fleet-org", "acme", "--fleet-every", "1"], generatedEvents: 50)
    defer { served.stop() }
    // A change made while it serves, by another process.
    _ = try served.store.calendar("Later")
    let head = try FleetCommandTests.head(served.store)
    var fleet: [String: Any]?
    for _ in 0..<150 {
      fleet = (try served.store.object(["status"])["fleet"] as? [[String: Any]])?.first
      if let published = fleet?["published"] as? Int, published >= head.position { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(fleet?["organisation"] as? String == "acme", "\(String(describing: fleet))")
    #expect((fleet?["published"] as? Int ?? 0) >= head.position && fleet?["at"] is String)
    let table = try served.store.run(["status"])
    #expect(table.stdout.contains("fleet acme") && table.stdout.contains("published"), "\(table.stdout)")
    // The stream holds the store's log: a mirror verifies it whole.
    let directory = TemporaryDirectory("mirror")
    let (status, answer) = try FleetCommandTests.mirror(nats, directory)
    let verdict = try #require((answer["stores"] as? [[String: Any]])?.first)
    #expect(status == 0 && (verdict["verifiedSize"] as? Int ?? 0) >= head.position, "\(answer)")
  }

  @Test func fleetOptionsThatCannotWorkAreRefusedBeforeServing() throws {
    let store = try CLIStore()
    for options in [
      ["--fleet-nats", "nats://127.0.0.1:1"], ["--fleet-org", "acme"],
      ["--fleet-nats", "nats://127.0.0.1:1", "--fleet-org", "a.b"], ["--fleet-ca", "/etc/ssl/certs/ca.pem"],
    ] {
      let result = try store.run(["serve", "--socket", store.directory.path + "/s.sock"] + options)
      #expect(result.status == 64, "\(options): \(result.stderr)")
    }
  }
}
