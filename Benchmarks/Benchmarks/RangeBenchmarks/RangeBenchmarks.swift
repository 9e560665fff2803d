import Benchmark
import BenchmarkSupport
import Foundation
import Kalends
import KalendsSynthetic
import RangeSupport

// Range queries on the 1M-event synthetic store (issue 4): one-week and one-month windows, in one
// calendar and in all of them, at pseudo-random positions over 2020–2029; one query per iteration,
// the same windows in the same order for Kalends (the index through `instances(matching:)`, and
// `events(matching:)`), SQLite (a B-tree on (calendar, start) and an R*Tree over the same
// instances, pre-expanded), and the floors beside them (LMDB alone, and a tuned SQLite). Then a
// full rebuild of every projection from the store's log.
// `Benchmarks/scripts/bench-range` runs this suite and AuditBenchmarks and prints the summary.

/// Which window an implementation queries next (each benchmark cycles through the same list).
final class Cursor: @unchecked Sendable {
  // One benchmark at a time, one thread.
  var next = 0

  func take(_ windows: RangeWindows) -> RangeWindows.Window {
    defer { next = (next + 1) % windows.windows.count }
    return windows.windows[next]
  }
}

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 20, maxDuration: .seconds(3),
    maxIterations: 20_000)

  for windows in RangeWindows.all() {
    let group = "Range \(windows.name)"
    let setUp: () throws -> Void = { try RangeFixture.shared().checkCounts(windows) }

    let instancesCursor = Cursor()
    Benchmark("\(group)/Kalends instances", configuration: configuration) { _ throws in
      let fixture = try RangeFixture.shared()
      let predicate = RangeWindows.predicate(instancesCursor.take(windows), fixture.calendars)
      blackHole(try fixture.events.instances(matching: predicate))
    } setup: {
      try setUp()
    }

    let eventsCursor = Cursor()
    Benchmark("\(group)/Kalends events", configuration: configuration) { _ throws in
      let fixture = try RangeFixture.shared()
      let predicate = RangeWindows.predicate(eventsCursor.take(windows), fixture.calendars)
      blackHole(try fixture.events.events(matching: predicate))
    } setup: {
      try setUp()
    }

    // The floors (Sources/RangeFloor): the least LMDB work that answers the window, and a tuned
    // SQLite; the global index answers windows of all calendars only.
    for kind in RangeFloors.Kind.allCases where kind != .global || windows.scope == .allCalendars {
      let cursor = Cursor()
      Benchmark("\(group)/\(kind.rawValue)", configuration: configuration) { _ throws in
        blackHole(try RangeFixture.shared().floors.query(cursor.take(windows), kind))
      } setup: {
        try setUp()
      }
    }

    for index in SQLiteRange.Index.allCases {
      let cursor = Cursor()
      var rows: [SQLiteRange.Row] = []
      Benchmark("\(group)/\(index.rawValue)", configuration: configuration) { _ throws in
        try RangeFixture.shared().sqlite.query(cursor.take(windows), index, into: &rows)
        blackHole(rows.count)
      } setup: {
        try setUp()
      }
    }
  }

  // Every projection dropped and rebuilt from the 1M-event store's log, in a scratch copy of it.
  final class Rebuild: @unchecked Sendable {
    var scratch: ScratchDirectory?
    var store: Store?
  }
  let rebuild = Rebuild()
  let rebuildConfiguration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput], warmupIterations: 0, maxDuration: .seconds(1), maxIterations: 1)
  Benchmark("Rebuild 1M/Kalends", configuration: rebuildConfiguration) { _ throws in
    blackHole(try rebuild.store!.rebuildProjections())
  } setup: {
    let source = try BenchCache.syntheticStore()
    let scratch = ScratchDirectory("rebuild")
    try FileManager.default.createDirectory(atPath: scratch.storePath, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source + "/data.mdb", toPath: scratch.storePath + "/data.mdb")
    // The copy is written back to disk now: otherwise the rebuild's first durable commit flushes
    // the whole copied file (about 1.5 GB) and the benchmark times the copy.
    let copied = open(scratch.storePath + "/data.mdb", O_RDONLY)
    if copied >= 0 {
      fsync(copied)
      close(copied)
    }
    rebuild.scratch = scratch
    rebuild.store = try BenchCache.open(scratch.storePath)
  } teardown: {
    rebuild.store = nil
    if let scratch = rebuild.scratch {
      // The index's size after a rebuild, for Benchmarks/scripts/bench-range (before: the cached store's).
      if let json = try? IndexSize.json(scratch.storePath),
        let data = try? JSONSerialization.data(withJSONObject: json)
      {
        _ = FileManager.default.createFile(atPath: BenchCache.reportPath("rebuilt-index-size"), contents: data)
      }
      scratch.remove()
    }
  }
}
