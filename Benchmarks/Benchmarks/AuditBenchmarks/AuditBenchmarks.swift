import Benchmark
import BenchmarkSupport
import Kalends
import RangeSupport

// The privacy audit on a log of 10 million records (issue 6): `history(client:)` of one client and
// `state(at:)` of every client at one instant, each under 50 ms; and the proofs of the log's
// Merkle tree on the same log: an inclusion proof of one record and a consistency proof from the
// tree at 5M records to the whole log (targets: p50 ≤ 100 µs and ≤ 200 µs). The store (10M
// notes, 1,000 clients, 50,000 privacy calls) is built once and cached (see BenchCache).

/// The audit store, opened once per process, and the clients and instants the benchmarks cycle through.
final class AuditFixture: @unchecked Sendable {
  // One benchmark at a time, one thread.
  var audit: PrivacyAudit?
  var store: Store?
  var size: UInt64 = 0
  var nextPosition: UInt64 = 0
  var instants: [Timestamp] = []
  var nextClient = 0
  var nextInstant = 0
  let clients = 1_000

  func setUp() throws {
    guard audit == nil else { return }
    let store = try BenchCache.open(try AuditStore.cachedPath())
    let audit = PrivacyAudit(store: store)
    self.store = store
    size = try store.treeHead().size
    // Instants spread from the first client's registration to the last client's last record.
    let first = try audit.history(client: AuditStore.client(0)).first!.timestamp.rawValue
    let last = try audit.history(client: AuditStore.client(clients - 1)).last!.timestamp.rawValue
    instants = (0..<64).map { Timestamp(rawValue: first + (last - first) * Int64($0 * 37 % 64) / 63) }
    self.audit = audit
  }
}

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 3, maxDuration: .seconds(5),
    maxIterations: 2_000)
  let fixture = AuditFixture()

  Benchmark("Audit 10M/history(client:)", configuration: configuration) { _ throws in
    let client = AuditStore.client(fixture.nextClient * 389 % fixture.clients)
    fixture.nextClient += 1
    blackHole(try fixture.audit!.history(client: client))
  } setup: {
    try fixture.setUp()
  }

  Benchmark("Audit 10M/state(at:)", configuration: configuration) { _ throws in
    let instant = fixture.instants[fixture.nextInstant % fixture.instants.count]
    fixture.nextInstant += 1
    blackHole(try fixture.audit!.state(at: instant))
  } setup: {
    try fixture.setUp()
  }

  Benchmark("Ledger 10M/inclusion proof", configuration: configuration) { _ throws in
    // Positions spread over the whole log, each proven in the tree of every record.
    fixture.nextPosition = (fixture.nextPosition &+ 7_368_787) % fixture.size
    blackHole(try fixture.store!.inclusionProof(for: LogPosition(fixture.nextPosition + 1)))
  } setup: {
    try fixture.setUp()
  }

  Benchmark("Ledger 10M/consistency proof 5M to head", configuration: configuration) { _ throws in
    blackHole(try fixture.store!.consistencyProof(from: fixture.size / 2))
  } setup: {
    try fixture.setUp()
  }
}
