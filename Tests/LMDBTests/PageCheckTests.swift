import Foundation
import LMDB
import Testing

@Suite("Page check")
struct PageCheckTests {
  /// An environment with two named databases, one with values large enough for overflow pages.
  func filled(_ path: String) throws {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 8))
    let small = try environment.openDatabase(named: "small")
    let large = try environment.openDatabase(named: "large")
    try environment.write { txn in
      for index in 0..<5_000 as Range<UInt64> {
        try txn.put(bytes("value \(index)"), forKey: BigEndianKey(index), in: small)
      }
      for index in 0..<20 as Range<UInt64> {
        try txn.put([UInt8](repeating: UInt8(index), count: 10_000), forKey: BigEndianKey(index), in: large)
      }
    }
  }

  func overwrite(_ path: String, at offset: UInt64, with data: [UInt8]) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path + "/data.mdb"))
    try handle.seek(toOffset: offset)
    handle.write(Data(data))
    try handle.close()
  }

  @Test func aSoundFileHasNoDamage() throws {
    let directory = TemporaryDirectory()
    try filled(directory.path)
    let environment = try Environment(path: directory.path, options: EnvironmentOptions(maxDatabases: 8))
    #expect(try environment.checkPages() == nil)
  }

  @Test func aPageWhoseHeaderNamesAnotherPageIsReported() throws {
    let directory = TemporaryDirectory()
    try filled(directory.path)
    let file = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/data.mdb"))
    let page = try #require(file.range(of: Data(bytes("value 2500")))).lowerBound / 4096
    try overwrite(directory.path, at: UInt64(page * 4096), with: [0x77, 0x77, 0x77, 0x77, 0, 0, 0, 0])
    let environment = try Environment(path: directory.path, options: EnvironmentOptions(maxDatabases: 8))
    let damage = try #require(try environment.checkPages())
    #expect(damage.page == page)
    #expect(damage.database == "small")
    #expect(damage.reason.contains("says it is page"))
    let lastIntact = try #require(damage.lastIntactKey).reduce(0) { $0 << 8 | UInt64($1) }
    #expect(lastIntact > 0 && lastIntact < 2_500, "the keys before the damaged page were read")
  }

  @Test func aFileCutShortIsReportedAsTruncated() throws {
    let directory = TemporaryDirectory()
    try filled(directory.path)
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: directory.path + "/data.mdb")[.size] as? Int)
    let handle = try #require(FileHandle(forUpdatingAtPath: directory.path + "/data.mdb"))
    try handle.truncate(atOffset: UInt64(size / 2))
    try handle.close()
    let environment = try Environment(path: directory.path, options: EnvironmentOptions(maxDatabases: 8))
    let damage = try #require(try environment.checkPages())
    #expect(damage.reason.contains("truncated"))
  }
}
