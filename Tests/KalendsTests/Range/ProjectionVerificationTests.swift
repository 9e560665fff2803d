import Kalends
import KalendsTestSupport
import LMDB
import Testing

@Suite("Projection verification")
struct ProjectionVerificationTests {
  /// A store with a recurring event, a detached occurrence and a removed event.
  func populate(_ store: Store) throws {
    let fixture = try EventFixture(store)
    let series = try fixture.events.save(try fixture.meeting(rrule: "FREQ=DAILY"), span: .thisEvent)
    var occurrence = try #require(try fixture.events.event(withID: series.id, occurrence: local(2026, 4, 1, 9)))
    occurrence.title = "moved"
    try fixture.events.save(occurrence, span: .thisEvent)
    let gone = try fixture.events.save(try fixture.meeting("gone", zone: nil), span: .thisEvent)
    try fixture.events.remove(gone, span: .thisEvent)
  }

  @Test func liveProjectionsEqualARebuildAside() throws {
    try withStore { store, _ in
      try populate(store)
      let verification = try store.verifyProjections()
      #expect(verification.isConsistent)
      #expect(verification.position == (try store.head().position))
      #expect(verification.live == (try store.projectionDigests()))
      #expect(Set(verification.live.keys).isSuperset(of: ["objects", "range.instances", "range.open"]))
    }
  }

  @Test func aTamperedIndexIsNamedAndARebuildRepairsIt() throws {
    let directory = TemporaryDirectory()
    do { try populate(try Store.create(at: directory.storePath)) }
    do {
      let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
      let instances = try environment.openDatabase(named: "range.instances", options: [])
      try environment.write { txn in
        var cursor = [UInt8]()
        try txn.withCursor(on: instances) { c in
          _ = try c.last()
          cursor = try c.currentKey()
        }
        _ = try txn.delete(cursor, in: instances)
      }
    }
    let store = try Store.open(at: directory.storePath)
    let damaged = try store.verifyProjections()
    #expect(damaged.divergent == ["range.instances"])
    #expect(damaged.live["range.instances"]!.entries + 1 == damaged.rebuilt["range.instances"]!.entries)
    try store.rebuildProjections()
    #expect(try store.verifyProjections().isConsistent)
  }

  @Test func anEmptiedRangeIndexBehindTheHeadCatchesUpAtOpen() throws {
    let directory = TemporaryDirectory()
    let before: [String: ProjectionDigest]
    do {
      let store = try Store.create(at: directory.storePath)
      try populate(store)
      before = try store.projectionDigests()
    }
    do {
      let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
      let meta = try environment.openDatabase(named: "meta", options: [])
      let names = ["range.instances", "range.open", "range.items", "range.meta"]
      let databases = try names.map { try environment.openDatabase(named: $0, options: []) }
      try environment.write { txn in
        try txn.put([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0] as [UInt8], forKey: "projection:range", in: meta)
        for database in databases { try txn.removeAll(in: database) }
      }
    }
    let reopened = try Store.open(at: directory.storePath)
    #expect(try reopened.projectionCheckpoints()["range"] == (try reopened.head().position))
    #expect(try reopened.projectionDigests() == before)
  }
}
