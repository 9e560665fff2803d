public import Kalends
public import KalendsSynthetic

/// What the range benchmarks share, opened once per process: the cached synthetic store, its
/// calendars, the SQLite peer and the floors.
public final class RangeFixture: @unchecked Sendable {
  // The harness runs one benchmark at a time, from one thread.
  nonisolated(unsafe) private static var opened: RangeFixture?

  public let storePath: String
  public let store: Store
  public let events: EventStore
  public let calendars: [ObjectID]
  public let sqlite: SQLiteRange
  public let floors: RangeFloors

  private init() throws {
    storePath = try BenchCache.syntheticStore()
    store = try BenchCache.open(storePath)
    events = EventStore(store: store)
    calendars = SyntheticCalendar().calendars().map(\.id)
    sqlite = try SQLiteRange(path: try SQLiteRange.cachedPath())
    floors = try RangeFloors(path: try RangeFloors.cachedPath())
  }

  /// The fixture, opened (and built into the cache) on first use.
  public static func shared() throws -> RangeFixture {
    if let opened { return opened }
    let fixture = try RangeFixture()
    opened = fixture
    return fixture
  }

  /// Checks that Kalends (instances and events) and both SQLite indexes find the same number of
  /// results in the first `count` windows of `windows`, and the floors the same results (count
  /// and sum of ids); returns Kalends' counts.
  @discardableResult
  public func checkCounts(_ windows: RangeWindows, count: Int = 5) throws -> [Int] {
    var rows: [SQLiteRange.Row] = []
    return try windows.windows.prefix(count).map { window in
      let predicate = RangeWindows.predicate(window, calendars)
      let instances = try events.instances(matching: predicate)
      let full = try events.events(matching: predicate).count
      sqlite.query(window, .btree, into: &rows)
      let btree = rows.count
      sqlite.query(window, .rtree, into: &rows)
      let rtree = rows.count
      guard instances.count == full, instances.count == btree, instances.count == rtree else {
        throw CountMismatch(
          description:
            "\(windows.name) [\(window.start), \(window.end)): instances \(instances.count), events \(full), "
            + "B-tree \(btree), R*Tree \(rtree)")
      }
      // The floors find the same occurrences: the same count and the same sum of ids.
      let ours = RangeFloors.Answer(
        count: instances.count,
        idSum: instances.reduce(0) { sum, instance in
          let bytes = instance.id.bytes
          let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
          let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
          return sum &+ high &+ low
        })
      for kind in RangeFloors.Kind.allCases where kind != .global || window.calendar == nil {
        let floor = try floors.query(window, kind)
        guard floor == ours else {
          throw CountMismatch(
            description: "\(windows.name) [\(window.start), \(window.end)): Kalends \(ours), \(kind.rawValue) \(floor)")
        }
      }
      return instances.count
    }
  }

  /// Kalends and SQLite disagree.
  public struct CountMismatch: Error, CustomStringConvertible {
    public let description: String
  }
}
