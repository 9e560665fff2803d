public import Kalends
public import KalendsSynthetic

/// What the range benchmarks share, opened once per process: the cached synthetic store, its
/// calendars, and the SQLite peer.
public final class RangeFixture: @unchecked Sendable {
  // The harness runs one benchmark at a time, from one thread.
  nonisolated(unsafe) private static var opened: RangeFixture?

  public let storePath: String
  public let store: Store
  public let events: EventStore
  public let calendars: [ObjectID]
  public let sqlite: SQLiteRange

  private init() throws {
    storePath = try BenchCache.syntheticStore()
    store = try BenchCache.open(storePath)
    events = EventStore(store: store)
    calendars = SyntheticCalendar().calendars().map(\.id)
    sqlite = try SQLiteRange(path: try SQLiteRange.cachedPath())
  }

  /// The fixture, opened (and built into the cache) on first use.
  public static func shared() throws -> RangeFixture {
    if let opened { return opened }
    let fixture = try RangeFixture()
    opened = fixture
    return fixture
  }

  /// Checks that Kalends (instances and events) and both SQLite indexes find the same number of
  /// results in the first `count` windows of `windows`; returns Kalends' counts.
  @discardableResult
  public func checkCounts(_ windows: RangeWindows, count: Int = 5) throws -> [Int] {
    var rows: [SQLiteRange.Row] = []
    return try windows.windows.prefix(count).map { window in
      let predicate = RangeWindows.predicate(window, calendars)
      let instances = try events.instances(matching: predicate).count
      let full = try events.events(matching: predicate).count
      sqlite.query(window, .btree, into: &rows)
      let btree = rows.count
      sqlite.query(window, .rtree, into: &rows)
      let rtree = rows.count
      guard instances == full, instances == btree, instances == rtree else {
        throw CountMismatch(
          description:
            "\(windows.name) [\(window.start), \(window.end)): instances \(instances), events \(full), "
            + "B-tree \(btree), R*Tree \(rtree)")
      }
      return instances
    }
  }

  /// Kalends and SQLite disagree.
  public struct CountMismatch: Error, CustomStringConvertible {
    public let description: String
  }
}
