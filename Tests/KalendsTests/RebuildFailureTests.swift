import Foundation
import Kalends
import KalendsTestSupport
import LMDB
import Testing

/// A record in the log that a projection of this version cannot apply (an older or damaged log may
/// hold one) stops a rebuild with an error that names the record, from whichever path meets it: the
/// scan of the log, or a worker indexing the range projection in the background.
@Suite("Rebuild failures")
struct RebuildFailureTests {
  /// Replaces `old` with `new` (of the same length) in every log record that holds it, through LMDB
  /// directly (the hash chain then no longer matches: a rebuild does not check it, `verify` does).
  /// Returns the positions of the records changed.
  func rewriteLog(in path: String, replacing old: [UInt8], with new: [UInt8]) throws -> [UInt64] {
    precondition(old.count == new.count)
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let log = try environment.openDatabase(named: "log", options: [])
    return try environment.write { txn in
      var changed: [([UInt8], [UInt8])] = []
      try txn.withCursor(on: log) { cursor in
        guard try cursor.first() else { return }
        try cursor.scanForward { key, value in
          var bytes = Array(copying: value)
          var index = bytes.startIndex
          while let found = bytes[index...].firstRange(of: old) {
            bytes.replaceSubrange(found, with: new)
            index = found.upperBound
          }
          if bytes != Array(copying: value) { changed.append((Array(copying: key), bytes)) }
          return .continue
        }
      }
      for (key, value) in changed { try txn.put(value, forKey: key, in: log) }
      return changed.map { $0.0.reduce(0) { $0 << 8 | UInt64($1) } }
    }
  }

  /// A store of 40 single meetings and one daily series (three units of work for the range
  /// workers), the series' external identifier `external`, closed again.
  func populate(_ path: String, external: String) throws {
    let fixture = try EventFixture(try Store.create(at: path))
    for index in 0..<40 { _ = try fixture.events.save(try fixture.meeting("Single \(index)"), span: .thisEvent) }
    var daily = try fixture.meeting("Daily", rrule: "FREQ=DAILY;COUNT=5")
    daily.externalID = external
    _ = try fixture.events.save(daily, span: .thisEvent)
  }

  /// The integrity problem `body` throws, if it throws one.
  func problem(_ body: () throws -> Void) -> IntegrityProblem? {
    do {
      try body()
    } catch StoreError.integrity(let problem) {
      return problem
    } catch {
      Issue.record("expected an integrity problem, got \(error)")
    }
    return nil
  }

  @Test func aRuleTheRangeWorkersCannotExpandStopsTheRebuildAtItsRecord() throws {
    let directory = TemporaryDirectory()
    try populate(directory.storePath, external: "daily-series")
    let changed = try rewriteLog(
      in: directory.storePath, replacing: Array("FREQ=DAILY".utf8), with: Array("FREQ=DAILZ".utf8))
    try #require(changed.count == 1)
    let store = try Store.open(at: directory.storePath)
    let failed = problem { _ = try store.rebuildProjections() }
    #expect(failed?.position == LogPosition(changed[0]))
    #expect(failed?.kind == .malformedRecord)
    #expect(failed?.detail.contains("the range projection cannot apply this record") == true)
    #expect(failed?.detail.contains("FREQ=DAILZ") == true)
    // The projections are left to be loaded again: each writable open tries, and fails the same way,
    // rather than serve a half-built index.
    #expect(problem { _ = try Store.open(at: directory.storePath) } == failed)
    // Read-only, the log is still verified, and the record is found altered.
    let readOnly = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true))
    let report = try readOnly.verify()
    #expect(report.problem?.position == LogPosition(changed[0]))
    #expect(report.problem?.kind == .hashMismatch)
    #expect(problem { _ = try readOnly.verifyProjections() }?.position == LogPosition(changed[0]))
  }

  @Test func anIdentifierTheScanCannotReadStopsTheRebuildAtItsRecord() throws {
    let directory = TemporaryDirectory()
    try populate(directory.storePath, external: "external-Q")
    // An ill-formed UTF-8 byte in the external identifier, which the log's scan reads.
    let changed = try rewriteLog(
      in: directory.storePath, replacing: Array("external-Q".utf8), with: Array("external-".utf8) + [0xFF])
    try #require(changed.count == 1)
    let store = try Store.open(at: directory.storePath)
    let failed = problem { _ = try store.rebuildProjections() }
    #expect(failed?.position == LogPosition(changed[0]))
    #expect(failed?.detail.contains("projection cannot apply this record") == true)
    #expect(problem { _ = try Store.open(at: directory.storePath) }?.position == LogPosition(changed[0]))
  }
}
