import Foundation
public import KalendsSynthetic
import RangeFloor

/// The floors under Kalends' range queries (`Sources/RangeFloor`, in C), built from the SQLite
/// peer's occurrences: (a) LMDB keyed `calendar | start | id → end`, (b) one global LMDB index
/// `start | calendar | id → end`, and (c) a tuned SQLite (ordinary and long events apart, covering
/// indexes, the longest ordinary duration bounding each scan). Each answer is a count and a sum of
/// ids, compared with Kalends' in ``RangeFixture/checkCounts(_:count:)``.
public final class RangeFloors: @unchecked Sendable {
  // Used by one benchmark at a time, from one thread.
  private let floor: OpaquePointer

  /// How a floor answers.
  public enum Kind: String, Sendable, CaseIterable {
    /// (a): each calendar's run of the calendar-keyed index (all calendars: one after another).
    case calendars = "floor LMDB"
    /// (b): the global start-ordered index (all calendars only).
    case global = "floor LMDB global"
    /// (c): the tuned SQLite.
    case tunedSQLite = "tuned SQLite"
  }

  /// What a query found: how many occurrences, and the wrapping sum of their ids' two big-endian
  /// halves.
  public struct Answer: Equatable, Sendable, CustomStringConvertible {
    public var count: Int
    public var idSum: UInt64

    public init(count: Int, idSum: UInt64) {
      self.count = count
      self.idSum = idSum
    }

    public var description: String { "\(count) (ids \(String(idSum, radix: 16)))" }
  }

  /// A floor's failure.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String

    init(description: String) { self.description = description }

    /// The NUL-terminated message the C side wrote into `message`.
    init(message: [CChar]) {
      description = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// The cached floors of the synthetic calendar `(seed, events)`, built from its SQLite peer
  /// when missing.
  public static func cachedPath(seed: UInt64 = 1, events: Int = 1_000_000) throws -> String {
    let peer = try SQLiteRange.cachedPath(seed: seed, events: events)
    return try BenchCache.entry("range-floor-seed\(seed)-events\(events)") { path in
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      var error = [CChar](repeating: 0, count: 512)
      guard range_floor_build(peer, path, path + "/tuned.sqlite", &error, error.count) == 0 else {
        throw Failure(message: error)
      }
    }
  }

  /// Opens the floors at `path` read-only.
  public init(path: String) throws {
    var error = [CChar](repeating: 0, count: 512)
    var opened: OpaquePointer?
    guard range_floor_open(path, path + "/tuned.sqlite", &opened, &error, error.count) == 0, let opened else {
      throw Failure(message: error)
    }
    floor = opened
  }

  deinit { range_floor_close(floor) }

  /// The occurrences overlapping `window` (RFC 4791 §9.9), through `kind`.
  /// - Precondition: ``Kind/global`` answers windows of all calendars only.
  public func query(_ window: RangeWindows.Window, _ kind: Kind) throws -> Answer {
    var answer = range_floor_answer()
    let calendar = Int32(window.calendar ?? -1)
    let status: Int32
    switch kind {
    case .calendars: status = range_floor_query(floor, calendar, window.start, window.end, &answer)
    case .global:
      precondition(window.calendar == nil, "the global index answers windows of all calendars")
      status = range_floor_query_global(floor, window.start, window.end, &answer)
    case .tunedSQLite: status = range_floor_query_sqlite(floor, calendar, window.start, window.end, &answer)
    }
    guard status == 0 else { throw Failure(description: "\(kind.rawValue): error \(status)") }
    return Answer(count: Int(answer.count), idSum: answer.id_sum)
  }
}
