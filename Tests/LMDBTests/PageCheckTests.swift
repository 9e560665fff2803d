import Foundation
import KalendsTestSupport
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

  /// Where the named database `name`'s record starts in the current catalog (the main database's
  /// root page, of the newer meta page), and that page.
  func catalogRecord(_ name: String, in path: String) throws -> (offset: Int, page: Int) {
    let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")))
    func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
    let meta = u64(144) >= u64(4096 + 144) ? 0 : 4096
    let root = u64(meta + 128)
    let page = Array(file[root * 4096..<(root + 1) * 4096])
    let key = bytes(name)
    let upper = Int(page[14]) | Int(page[15]) << 8  // where the node area starts
    let at = try #require((upper...(4096 - key.count)).first { Array(page[$0..<$0 + key.count]) == key })
    return (root * 4096 + at + key.count, root)
  }

  @Test(arguments: [
    (-4, [UInt8(0)], "is not a database"),  // the node's F_SUBDATA flag cleared
    (4, [UInt8(0x08)], "the flags 0x8"),  // MDB_INTEGERKEY: LMDB would refuse to open it
    (6, [UInt8(9)], "does not match its tree"),  // the depth, which sizes LMDB's cursor stack
    (32, [UInt8(0x11)], "does not match its tree"),  // the entry count
  ])
  func aDamagedCatalogRecordIsReportedAtItsPage(offset: Int, replacement: [UInt8], reason: String) throws {
    let directory = TemporaryDirectory()
    try filled(directory.path)
    let record = try catalogRecord("small", in: directory.path)
    // A node's flags sit 4 bytes into its 8-byte header, before the key; the record follows the key.
    let at = offset < 0 ? record.offset - bytes("small").count - 8 + 4 : record.offset + offset
    try overwrite(directory.path, at: UInt64(at), with: replacement)
    let environment = try Environment(path: directory.path, options: EnvironmentOptions(maxDatabases: 8))
    let damage = try #require(try environment.checkPages())
    #expect(damage.page == record.page)
    #expect(damage.reason.contains(reason), "\(damage.reason)")
  }

  @Test func aKeyOverwrittenOutOfOrderIsReported() throws {
    let directory = TemporaryDirectory()
    try filled(directory.path)
    let file = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/data.mdb"))
    // Key 2500 (big-endian 0x09C4) and its value: make the key sort after every other key.
    let node = try #require(file.range(of: Data([0, 0, 0, 0, 0, 0, 0x09, 0xC4] + bytes("value 2500"))))
    try overwrite(directory.path, at: UInt64(node.lowerBound), with: [0xFF])
    let environment = try Environment(path: directory.path, options: EnvironmentOptions(maxDatabases: 8))
    let damage = try #require(try environment.checkPages())
    #expect(damage.database == "small")
    #expect(damage.page == node.lowerBound / 4096)
    #expect(damage.reason.contains("sort"), "\(damage.reason)")
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
