import Foundation
import Kalends
import KalendsSynthetic
import KalendsTestSupport
import Testing

/// A data file damaged outside Kalends (bytes overwritten, the file cut short) must give a clear
/// error from `kalends verify` — naming the first bad position when the log is hit — never a crash.
@Suite("Command line: a damaged data file", .serialized)
struct DataFileDamageTests {
  /// A store with events, privacy decisions, imports and 200 numbered notes (positions 2…201).
  static func writtenStore() throws -> TemporaryDirectory {
    let directory = TemporaryDirectory("damage")
    let store = ["--store", directory.storePath]
    try #require(try CLI.run(["init"] + store).status == 0)
    let notes = (0..<200).map { String(format: "note-%04d-%@", $0, String(repeating: "x", count: 40)) }
    try #require(try CLI.run(["log", "annotate"] + store, stdin: notes.joined(separator: "\n")).status == 0)
    let writer = try CLI.run(["torture", "writer", "--writer", "1", "--commands", "150"] + store, program: CLI.harness)
    try #require(writer.status == 0, "\(writer.stderr)")
    return directory
  }

  static func damage(_ path: String, _ body: (FileHandle, Int) throws -> Void) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path + "/data.mdb"))
    defer { try? handle.close() }
    try body(handle, Int(try handle.seekToEnd()))
  }

  /// Runs `verify` and requires a clean exit (no signal), 0 or 69, and one `error:` line on failure.
  static func verify(_ path: String, json: Bool = false) throws -> CLI.Result {
    let process = try CLI.start(["verify", "--store", path] + (json ? ["--format", "json"] : []))
    let result = CLI.finish(process.0, process.1, process.2)
    #expect(process.0.terminationReason == .exit, "verify died of signal \(result.status): \(result.stderr)")
    #expect([0, 69].contains(result.status), "\(result.stderr)")
    if result.status != 0 {
      #expect(result.stderr.hasPrefix("error: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      #expect(!result.stderr.contains("memory fault"), "the page check missed damage LMDB then ran into")
    }
    return result
  }

  @Test func bytesOverwrittenInARecordAreNamedAtTheirPosition() throws {
    let directory = try Self.writtenStore()
    let data = try Data(contentsOf: URL(fileURLWithPath: directory.storePath + "/data.mdb"))
    let needle = Data("note-0123-".utf8)
    let found = try #require(data.range(of: needle))
    try Self.damage(directory.storePath) { handle, _ in
      try handle.seek(toOffset: UInt64(found.lowerBound + 5))
      handle.write(Data("9999".utf8))
    }
    let result = try Self.verify(directory.storePath, json: true)
    #expect(result.status == 69)
    let report = try #require(try json(result.stdout) as? [String: Any])
    let problem = try #require(report["problem"] as? [String: Any])
    #expect(problem["position"] as? Int == 125)
    #expect(problem["kind"] as? String == "hashMismatch")
    #expect(result.stderr.contains("position 125"))
  }

  @Test func aTruncatedFileIsReportedByVerifyAndRefusedByOtherCommands() throws {
    let directory = try Self.writtenStore()
    try Self.damage(directory.storePath) { handle, size in try handle.truncate(atOffset: UInt64(size / 2)) }
    let verified = try Self.verify(directory.storePath)
    #expect(verified.status == 69)
    #expect(verified.stderr.contains("truncated"))
    let events = try CLI.run(["events", "--from", "2026-01-01", "--to", "2026-02-01", "--store", directory.storePath])
    #expect(events.status == 69)
    #expect(events.stderr.contains("truncated"), "\(events.stderr)")
  }

  /// Random damage of a compacted store (no free pages, so nearly every byte is in use): each
  /// outcome is a clear error, or — damage that fell in a page's unused middle — the same log.
  @Test func randomDamageGivesAClearErrorNeverACrash() throws {
    let pristine = try Self.writtenStore()
    try #require(try CLI.run(["compact", "--store", pristine.storePath]).status == 0)
    let intact = try #require(try json(try Self.verify(pristine.storePath, json: true).stdout) as? [String: Any])
    var outcomes: [Int32: Int] = [:]
    for seed in 1...40 as ClosedRange<UInt64> {
      var random = SeededGenerator(seed: seed)
      let copy = TemporaryDirectory("damaged")
      try FileManager.default.createDirectory(atPath: copy.storePath, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: pristine.storePath + "/data.mdb", toPath: copy.storePath + "/data.mdb")
      try Self.damage(copy.storePath) { handle, size in
        if seed % 4 == 0 {
          try handle.truncate(atOffset: UInt64.random(in: 0..<UInt64(size), using: &random))
          return
        }
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          try handle.seek(toOffset: UInt64.random(in: 0..<UInt64(size - 64), using: &random))
          handle.write(
            Data((0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
      }
      let result = try Self.verify(copy.storePath, json: true)
      outcomes[result.status, default: 0] += 1
      if result.status == 0 {
        let report = try #require(try json(result.stdout) as? [String: Any])
        #expect(report["verifiedHeadHash"] as? String == intact["verifiedHeadHash"] as? String, "seed \(seed)")
        #expect(report["recordsChecked"] as? Int == intact["recordsChecked"] as? Int, "seed \(seed)")
      }
    }
    #expect((outcomes[69] ?? 0) >= 30, "most random damage hits pages in use: \(outcomes)")
  }

  /// Overwrites bytes of the current catalog (LMDB's main database) of the store's data file:
  /// `offset` bytes after the name `name` of a named database's node.
  static func damageCatalog(_ path: String, at name: String, offset: Int, with bytes: [UInt8]) throws {
    let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")))
    func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
    let pageSize = Int(file[40]) | Int(file[41]) << 8 | Int(file[42]) << 16
    let meta = u64(144) >= u64(pageSize + 144) ? 0 : pageSize
    let root = u64(meta + 128) * pageSize
    let upper = root + (Int(file[root + 14]) | Int(file[root + 15]) << 8)
    let key = Array(name.utf8)
    let at = try #require((upper...(root + pageSize - key.count)).first { Array(file[$0..<$0 + key.count]) == key })
    try damage(path) { handle, _ in
      try handle.seek(toOffset: UInt64(at + offset))
      handle.write(Data(bytes))
    }
  }

  @Test func aProjectionNameDamagedInLMDBsCatalogIsAProjectionToRebuild() throws {
    let directory = try Self.writtenStore()
    // Still in key order in the catalog: the store reads as one without that database.
    try Self.damageCatalog(directory.storePath, at: "objects.byCalendar", offset: 17, with: Array("R".utf8))
    let damaged = try Self.verify(directory.storePath)
    #expect(damaged.status == 69)
    #expect(damaged.stderr.contains("objects.byCalendar (live missing"), "\(damaged.stderr)")
    #expect(damaged.stderr.contains("kalends rebuild"), "\(damaged.stderr)")
    #expect(try CLI.run(["rebuild", "--store", directory.storePath]).status == 0)
    #expect(try Self.verify(directory.storePath).status == 0)
  }

  @Test func aCatalogNameOutOfOrderIsADamagedPage() throws {
    let directory = try Self.writtenStore()
    try Self.damageCatalog(directory.storePath, at: "objects.byCalendar", offset: 0, with: Array("OBJECTS".utf8))
    let damaged = try Self.verify(directory.storePath)
    #expect(damaged.status == 69)
    #expect(damaged.stderr.contains("does not sort after"), "\(damaged.stderr)")
  }

  @Test func aMetaPageAskingForAnImpossibleMapIsAnIntegrityFailure() throws {
    let directory = try Self.writtenStore()
    // The first meta page's last page and transaction number overwritten: LMDB takes it as the
    // newest and asks for a map of exabytes.
    try Self.damage(directory.storePath) { handle, _ in
      try handle.seek(toOffset: 136)
      handle.write(Data(repeating: 0xCC, count: 16))
    }
    let damaged = try Self.verify(directory.storePath)
    #expect(damaged.status == 69)
    #expect(damaged.stderr.contains("meta page"), "\(damaged.stderr)")
    let events = try CLI.run(["events", "--from", "2026-01-01", "--to", "2026-02-01", "--store", directory.storePath])
    #expect(events.status == 69, "\(events.stderr)")
  }

  @Test func aDatabaseFlagDamagedInLMDBsCatalogIsAnIntegrityFailure() throws {
    let directory = try Self.writtenStore()
    // The record follows the name; its flags are 4 bytes in. MDB_INTEGERKEY makes LMDB refuse it.
    try Self.damageCatalog(directory.storePath, at: "objects.byCalendar", offset: 18 + 4, with: [0x08])
    let damaged = try Self.verify(directory.storePath)
    #expect(damaged.status == 69)
    #expect(damaged.stderr.contains("objects.byCalendar"), "\(damaged.stderr)")
    let events = try CLI.run(["events", "--from", "2026-01-01", "--to", "2026-02-01", "--store", directory.storePath])
    #expect(events.status == 69, "\(events.stderr)")
    #expect(events.stderr.contains("catalog"), "\(events.stderr)")
  }

  @Test func projectionsDifferingFromTheLogAreRebuiltFromIt() throws {
    let directory = try Self.writtenStore()
    try corruptProjection("objects", in: directory.storePath)
    let damaged = try Self.verify(directory.storePath)
    #expect(damaged.status == 69)
    #expect(damaged.stderr.contains("objects") && damaged.stderr.contains("kalends rebuild"), "\(damaged.stderr)")
    let rebuilt = try CLI.run(["rebuild", "--store", directory.storePath])
    #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
    #expect(try Self.verify(directory.storePath).status == 0)
  }
}
