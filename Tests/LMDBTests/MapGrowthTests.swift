import Foundation
import KalendsTestSupport
import LMDB
import Synchronization
import Testing

@Suite("Map growth")
struct MapGrowthTests {
  @Test func writesGrowATinyMapInsteadOfFailing() throws {
    let options = EnvironmentOptions(mapSize: 64 << 10, durability: .noSync)
    try withEnvironment(options) { environment, _ in
      let db = try environment.openDatabase(named: "db")
      let value = [UInt8](repeating: 0xab, count: 200)
      for batch in 0..<100 as Range<UInt64> {
        try environment.write { txn in
          for index in 0..<1000 as Range<UInt64> {
            try txn.put(value, forKey: BigEndianKey(batch * 1000 + index), in: db, options: .append)
          }
        }
      }
      #expect(try environment.read { try $0.statistics(of: db).entries } == 100_000)
      #expect(try environment.info().mapSize > 64 << 10)
    }
  }

  @Test func oneTransactionLargerThanTheMapIsRetriedWholeAfterGrowing() throws {
    let options = EnvironmentOptions(mapSize: 64 << 10, durability: .noSync)
    try withEnvironment(options) { environment, _ in
      let db = try environment.openDatabase(named: "db")
      var runs = 0
      try environment.write { txn in
        runs += 1
        for index in 0..<20_000 as Range<UInt64> {
          try txn.put([UInt8](repeating: 1, count: 100), forKey: BigEndianKey(index), in: db)
        }
      }
      #expect(runs > 1)
      #expect(try environment.read { try $0.statistics(of: db).entries } == 20_000)
    }
  }

  @Test func withoutGrowthAFullMapFailsWithMapFullAndWritesNothing() throws {
    let options = EnvironmentOptions(mapSize: 64 << 10, growsMapAutomatically: false, durability: .noSync)
    try withEnvironment(options) { environment, _ in
      let db = try environment.openDatabase(named: "db")
      #expect(throws: LMDBError.mapFull) {
        try environment.write { txn in
          for index in 0..<20_000 as Range<UInt64> {
            try txn.put([UInt8](repeating: 1, count: 100), forKey: BigEndianKey(index), in: db)
          }
        }
      }
      #expect(try environment.read { try $0.statistics(of: db).entries } == 0)
    }
  }

  @Test func growthStopsAtTheMaximumMapSize() throws {
    let options = EnvironmentOptions(mapSize: 64 << 10, maximumMapSize: 256 << 10, durability: .noSync)
    try withEnvironment(options) { environment, _ in
      let db = try environment.openDatabase(named: "db")
      #expect(throws: LMDBError.mapFull) {
        try environment.write { txn in
          for index in 0..<20_000 as Range<UInt64> {
            try txn.put([UInt8](repeating: 1, count: 100), forKey: BigEndianKey(index), in: db)
          }
        }
      }
      #expect(try environment.info().mapSize <= 256 << 10)
    }
  }

  @Test func concurrentWritersFromManyThreadsAllLand() async throws {
    let options = EnvironmentOptions(mapSize: 64 << 10, durability: .noSync)
    try await withThrowingTaskGroup(of: Void.self) { group in
      let directory = TemporaryDirectory()
      let environment = try Environment(path: directory.path, options: options)
      let db = try environment.openDatabase(named: "db")
      for writer in 0..<4 as Range<UInt64> {
        group.addTask {
          for batch in 0..<50 as Range<UInt64> {
            try environment.write { txn in
              for index in 0..<100 as Range<UInt64> {
                try txn.put(
                  [UInt8](repeating: 2, count: 100), forKey: BigEndianKey(writer << 32 | batch * 100 + index), in: db)
              }
            }
            _ = try environment.read { try $0.statistics(of: db).entries }
          }
        }
      }
      try await group.waitForAll()
      #expect(try environment.read { try $0.statistics(of: db).entries } == 4 * 50 * 100)
      withExtendedLifetime(directory) {}
    }
  }

  /// Short transactions on other threads that overlap one another keep the environment busy; a
  /// write that must grow the map still gets its turn at once instead of waiting for a moment when
  /// none runs (it used to starve until its 30-second timeout and fail with mapFull).
  @Test func aBigWriteGrowsTheMapWhileOtherThreadsKeepReading() throws {
    let directory = TemporaryDirectory()
    let environment = try Environment(
      path: directory.path, options: EnvironmentOptions(mapSize: 1 << 20, durability: .noSync))
    let db = try environment.openDatabase(named: "db")
    let reads = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<3 {
      Thread.detachNewThread {
        defer { done.signal() }
        while !stop.load(ordering: .relaxed) {
          _ = try? environment.read { txn in
            // The behaviour under test: readers that hold their snapshots while the map grows.
            usleep(2_000)
            return try txn.statistics(of: db).entries
          }
          reads.add(1, ordering: .relaxed)
        }
      }
    }
    while reads.load(ordering: .relaxed) < 30 { usleep(1_000) }
    let started = ContinuousClock.now
    try environment.write { txn in
      for index in 1...4_000 as ClosedRange<UInt64> {
        try txn.put([UInt8](repeating: 4, count: 1_000), forKey: BigEndianKey(index), in: db)
      }
    }
    let elapsed = ContinuousClock.now - started
    stop.store(true, ordering: .relaxed)
    for _ in 0..<3 { done.wait() }
    #expect(elapsed < .seconds(10), "the big write waited \(elapsed) for the map to grow")
    #expect(try environment.read { try $0.statistics(of: db).entries } == 4_000)
  }
}
