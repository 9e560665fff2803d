import CSQLite
import Foundation
import Kalends
public import KalendsSynthetic

/// The SQLite peer of the range queries: every instance of the synthetic calendar pre-expanded into
/// an occurrence table (recurring events expanded with Kalends' ``RecurrenceSet`` per event, floating
/// and all-day events placed in UTC, up to 2031-01-01), with (a) a B-tree index on
/// `(calendar, start)` and (b) an R*Tree (`rtree_i32`, times in minutes since 2000 so that they fit
/// in 32 bits exactly: every synthetic time is a whole minute). Queries use prepared statements,
/// reused, and read every column of every row.
public final class SQLiteRange: @unchecked Sendable {
  // Used by one benchmark at a time, from one thread.
  private var database: OpaquePointer?
  private var btreeOne: OpaquePointer?
  private var btreeAll: OpaquePointer?
  private var rtreeOne: OpaquePointer?
  private var rtreeAll: OpaquePointer?

  /// One row of an answer.
  public struct Row: Sendable {
    public var id: (UInt64, UInt64)
    public var occurrence: Int64
    public var start: Int64
    public var end: Int64
  }

  /// The index a query goes through.
  public enum Index: String, Sendable, CaseIterable {
    case btree = "SQLite B-tree"
    case rtree = "SQLite R*Tree"
  }

  /// 2000-01-01T00:00:00Z, the R*Tree's origin.
  static let origin: Int64 = 946_684_800
  /// The end of the expansion: 2031-01-01T00:00:00Z.
  public static let horizon: Int64 = 1_924_992_000

  /// The cached database of the synthetic calendar `(seed, events)`, built when missing.
  public static func cachedPath(seed: UInt64 = 1, events: Int = 1_000_000) throws -> String {
    try BenchCache.entry("sqlite-seed\(seed)-events\(events).sqlite") { path in
      try build(at: path, SyntheticCalendar(seed: seed, events: events))
    }
  }

  /// Opens the database at `path` read-only, memory-mapped like LMDB, and prepares the statements.
  public init(path: String) throws {
    try check(sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil))
    try execute("PRAGMA mmap_size = 17179869184; PRAGMA cache_size = -1048576;")
    let all = "(" + (0..<SyntheticCalendar.calendarCount).map(String.init).joined(separator: ",") + ")"
    btreeOne = try prepare(
      "SELECT id, occurrence, start, \"end\" FROM occurrences WHERE calendar = ?3 AND start < ?2 AND \"end\" > ?1")
    btreeAll = try prepare(
      "SELECT id, occurrence, start, \"end\" FROM occurrences WHERE calendar IN \(all) AND start < ?2 AND \"end\" > ?1")
    let rtree =
      "SELECT o.id, o.occurrence, o.start, o.\"end\" FROM occurrences_rtree r JOIN occurrences o ON o.rowid = r.id "
      + "WHERE r.start_minute < ?2 AND r.end_minute > ?1"
    rtreeOne = try prepare(rtree + " AND r.calendar_low <= ?3 AND r.calendar_high >= ?3")
    rtreeAll = try prepare(rtree)
  }

  deinit {
    for statement in [btreeOne, btreeAll, rtreeOne, rtreeAll] { sqlite3_finalize(statement) }
    sqlite3_close(database)
  }

  /// The rows overlapping `window` through `index`, into `rows` (emptied first).
  public func query(_ window: RangeWindows.Window, _ index: Index, into rows: inout [Row]) {
    rows.removeAll(keepingCapacity: true)
    let statement: OpaquePointer?
    switch (index, window.calendar == nil) {
    case (.btree, false): statement = btreeOne
    case (.btree, true): statement = btreeAll
    case (.rtree, false): statement = rtreeOne
    case (.rtree, true): statement = rtreeAll
    }
    let scale: Int64 = index == .rtree ? 60 : 1
    let offset: Int64 = index == .rtree ? Self.origin : 0
    sqlite3_reset(statement)
    sqlite3_bind_int64(statement, 1, (window.start - offset) / scale)
    sqlite3_bind_int64(statement, 2, (window.end - offset) / scale)
    if let calendar = window.calendar { sqlite3_bind_int64(statement, 3, Int64(calendar)) }
    while sqlite3_step(statement) == SQLITE_ROW {
      var id: (UInt64, UInt64) = (0, 0)
      if let blob = sqlite3_column_blob(statement, 0), sqlite3_column_bytes(statement, 0) == 16 {
        id = (blob.loadUnaligned(as: UInt64.self), blob.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      }
      rows.append(
        Row(
          id: id, occurrence: sqlite3_column_int64(statement, 1), start: sqlite3_column_int64(statement, 2),
          end: sqlite3_column_int64(statement, 3)))
    }
  }

  /// How many rows of the occurrence table there are.
  public func rowCount() throws -> Int {
    let statement = try prepare("SELECT count(*) FROM occurrences")
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
    return Int(sqlite3_column_int64(statement, 0))
  }

  // MARK: Building

  private init(creating path: String) throws {
    try check(sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil))
  }

  /// Builds the database of `calendar` at `path`.
  static func build(at path: String, _ calendar: SyntheticCalendar) throws {
    let sqlite = try SQLiteRange(creating: path)
    try sqlite.execute(
      """
      PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -1048576;
      CREATE TABLE occurrences (calendar INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
        id BLOB NOT NULL, occurrence INTEGER NOT NULL);
      BEGIN;
      """)
    let insert = try sqlite.prepare("INSERT INTO occurrences VALUES (?1, ?2, ?3, ?4, ?5)")
    defer { sqlite3_finalize(insert) }
    let indexes = Dictionary(uniqueKeysWithValues: calendar.calendars().enumerated().map { ($1.id, $0) })
    var rows = 0
    var zones: [String: ZoneRules] = [:]
    try calendar.forEachBatch { batch in
      for event in batch {
        for (local, start, end) in try expand(event, &zones) {
          sqlite3_bind_int64(insert, 1, Int64(indexes[event.calendarID!]!))
          sqlite3_bind_int64(insert, 2, start)
          sqlite3_bind_int64(insert, 3, end)
          _ = event.id.bytes.withUnsafeBytes {
            sqlite3_bind_blob(insert, 4, $0.baseAddress, 16, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
          }
          sqlite3_bind_int64(insert, 5, local.wallClockSeconds)
          guard sqlite3_step(insert) == SQLITE_DONE else { throw Failure(message: sqlite.message) }
          sqlite3_reset(insert)
          rows += 1
        }
      }
    }
    BenchCache.log("  \(rows) occurrences; indexing")
    try sqlite.execute(
      """
      COMMIT;
      CREATE INDEX occurrences_by_calendar_start ON occurrences (calendar, start);
      CREATE VIRTUAL TABLE occurrences_rtree USING rtree_i32 (id, start_minute, end_minute, calendar_low, calendar_high);
      INSERT INTO occurrences_rtree SELECT rowid, (start - \(origin)) / 60, ("end" - \(origin) + 59) / 60, calendar, calendar
        FROM occurrences;
      ANALYZE;
      """)
  }

  /// Every instance of `event` starting before the horizon: `(occurrence, start, end)`.
  static func expand(_ event: Event, _ zones: inout [String: ZoneRules]) throws -> [(LocalDateTime, Int64, Int64)] {
    if event.isRecurring {
      return try event.recurrenceSet().occurrences(from: origin, to: horizon, viewerZone: .utc).map {
        ($0.local, $0.start, $0.end)
      }
    }
    var resolver = ZoneRules.utc
    if !event.isAllDay, let name = event.timeZone {
      if zones[name] == nil { zones[name] = try ZoneRules.named(name) }
      resolver = zones[name]!
    }
    let start = resolver.resolve(event.start!)
    guard start < horizon else { return [] }
    return [(event.start!, start, max(start, resolver.resolve(event.end!)))]
  }

  // MARK: Plumbing

  /// An SQLite error.
  public struct Failure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "SQLite: " + message }
  }

  private var message: String { String(cString: sqlite3_errmsg(database)) }

  private func check(_ code: Int32) throws {
    guard code == SQLITE_OK else { throw Failure(message: "\(code): " + message) }
  }

  private func execute(_ sql: String) throws {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(database, sql, nil, nil, &error) == SQLITE_OK else {
      defer { sqlite3_free(error) }
      throw Failure(message: error.map { String(cString: $0) } ?? "exec failed")
    }
  }

  private func prepare(_ sql: String) throws -> OpaquePointer? {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
    return statement
  }
}
