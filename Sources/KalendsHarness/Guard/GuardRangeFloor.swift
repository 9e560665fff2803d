import Foundation
import Kalends
import LMDB

/// The floor under a range query: the same occurrences the store answers, in the leanest LMDB
/// layout that answers a window correctly (`Benchmarks/Sources/RangeFloor`'s layout (a)), read
/// with the same LMDB wrapper the store uses. Keys are `calendar | start | sequence`, values the
/// end; events longer than three days are kept apart, so that a window's scan starts at most the
/// longest ordinary duration before it. An answer is a count, under RFC 4791 §9.9's overlap rule.
final class GuardRangeFloor {
  /// Events longer than this, in seconds, are kept apart.
  static let longSeconds: Int64 = 259_200

  private let environment: Environment
  private let ordinary: Database
  private let long: Database
  /// Per calendar, the longest duration among its ordinary occurrences.
  private let longest: [Int64]

  /// Builds the floor in the new directory `path` from `occurrences`, one list per calendar.
  init(at path: String, occurrences: [[EventInstance]]) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let environment = try Environment(path: path, options: EnvironmentOptions(durability: .noSync))
    let (ordinary, long) = (
      try environment.openDatabase(named: "ordinary"), try environment.openDatabase(named: "long")
    )
    var longest = [Int64](repeating: 0, count: occurrences.count)
    try environment.write { txn in
      var sequence: UInt32 = 0
      for (calendar, instances) in occurrences.enumerated() {
        for instance in instances {
          sequence += 1
          let duration = instance.end - instance.start
          let isLong = duration > Self.longSeconds
          if !isLong { longest[calendar] = max(longest[calendar], duration) }
          try txn.put(
            Self.bytes(instance.end), forKey: Self.key(calendar, instance.start, sequence),
            in: isLong ? long : ordinary)
        }
      }
    }
    (self.environment, self.ordinary, self.long, self.longest) = (environment, ordinary, long, longest)
  }

  /// How many occurrences of calendar number `calendar` overlap `[from, to)`.
  func count(calendar: Int, from: Int64, to: Int64) throws -> Int {
    try environment.read { txn in
      try count(txn, calendar: calendar, from: from, to: to)
    }
  }

  /// How many occurrences of every calendar overlap `[from, to)`, in one read transaction.
  func countAll(from: Int64, to: Int64) throws -> Int {
    try environment.read { txn in
      var total = 0
      for calendar in longest.indices { total += try count(txn, calendar: calendar, from: from, to: to) }
      return total
    }
  }

  private func count(_ txn: borrowing ReadTransaction, calendar: Int, from: Int64, to: Int64) throws -> Int {
    var found = 0
    for (database, first) in [(ordinary, from - longest[calendar]), (long, Int64.min)] {
      try txn.withCursor(on: database) { cursor in
        guard try cursor.seek(atLeast: Self.key(calendar, first, 0)) else { return }
        try cursor.scanForward { key, value in
          let keyCalendar = UInt16(bigEndian: key.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt16.self))
          let start = Self.instant(UInt64(bigEndian: key.unsafeLoadUnaligned(fromByteOffset: 2, as: UInt64.self)))
          guard Int(keyCalendar) == calendar, start < to else { return .stop }
          let end = Int64(bitPattern: UInt64(bigEndian: value.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)))
          if end > from || (start == end && start >= from) { found += 1 }
          return .continue
        }
      }
    }
    return found
  }

  /// A key ordering by calendar, then start (biased so that negative instants sort first).
  private static func key(_ calendar: Int, _ start: Int64, _ sequence: UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(14)
    withUnsafeBytes(of: UInt16(calendar).bigEndian) { bytes += $0 }
    withUnsafeBytes(of: (UInt64(bitPattern: start) ^ (1 << 63)).bigEndian) { bytes += $0 }
    withUnsafeBytes(of: sequence.bigEndian) { bytes += $0 }
    return bytes
  }

  private static func instant(_ biased: UInt64) -> Int64 { Int64(bitPattern: biased ^ (1 << 63)) }

  private static func bytes(_ value: Int64) -> [UInt8] {
    withUnsafeBytes(of: UInt64(bitPattern: value).bigEndian) { Array($0) }
  }
}
