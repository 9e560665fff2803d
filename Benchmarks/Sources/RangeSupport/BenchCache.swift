import BenchmarkSupport
import Foundation
public import Kalends
import KalendsSynthetic

/// Big benchmark stores kept between runs: building the 1M-event calendar or the 10M-record audit
/// log takes minutes, so each is built once under the cache directory, keyed by its parameters,
/// and reused by every later run (delete the directory to rebuild them).
///
/// The directory is `$KALENDS_BENCH_CACHE` when set, else `$TMPDIR/kalends-bench-cache`. A store is
/// built under a temporary name and renamed when complete, so an interrupted build is never reused.
public enum BenchCache {
  /// The cache directory (created when missing).
  public static var directory: String {
    let environment = ProcessInfo.processInfo.environment
    let path = environment["KALENDS_BENCH_CACHE"] ?? (NSTemporaryDirectory() + "kalends-bench-cache")
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The path of the cached entry `key`, built by `build` (given a scratch path to fill) when missing.
  public static func entry(_ key: String, build: (String) throws -> Void) throws -> String {
    let path = directory + "/" + key
    if FileManager.default.fileExists(atPath: path) { return path }
    let partial = path + ".partial-\(getpid())"
    try? FileManager.default.removeItem(atPath: partial)
    log("building \(key) in \(directory) (once; later runs reuse it)")
    let started = ContinuousClock.now
    try build(partial)
    try FileManager.default.moveItem(atPath: partial, toPath: path)
    log("built \(key) in \(ContinuousClock.now - started)")
    return path
  }

  /// A directory holding the synthetic calendar's store (`store/`), built with
  /// ``SyntheticCalendar/load(into:progress:)`` and then rebuilt, so that its projections are laid
  /// out as `kalends rebuild` leaves them (in key order, on full pages) rather than as a million
  /// inline saves happened to split them: query times depend on it (Benchmarks/README.md).
  public static func syntheticStore(seed: UInt64 = 1, events: Int = 1_000_000) throws -> String {
    try entry("synthetic-seed\(seed)-events\(events)-rebuilt") { path in
      let store = try Store.create(
        at: path + "/store", options: StoreOptions(durability: .noSync, initialMapSize: Workload.mapSize))
      try SyntheticCalendar(seed: seed, events: events).load(into: EventStore(store: store)) { saved in
        if saved % 100_000 == 0 { log("  \(saved) events") }
      }
      log("  rebuilding the projections")
      _ = try store.rebuildProjections()
      try store.sync()
    } + "/store"
  }

  /// Opens a cached store for the benchmarks (writable so that projections can catch up, without
  /// syncing).
  public static func open(_ path: String) throws -> Store {
    try Store.open(at: path, options: StoreOptions(durability: .noSync, initialMapSize: Workload.mapSize))
  }

  /// Where a report (JSON) named `name` goes, for `Benchmarks/scripts/bench-range` to read.
  public static func reportPath(_ name: String) -> String {
    let reports = directory + "/reports"
    try? FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
    return reports + "/" + name + ".json"
  }

  /// A progress line on standard error.
  public static func log(_ line: String) {
    FileHandle.standardError.write(Data(("bench cache: " + line + "\n").utf8))
  }
}
