import Foundation
import KalendsTestSupport
import LMDB
import Testing

@Suite("Environment")
struct EnvironmentTests {
  @Test func openingCreatesOwnerOnlyFilesWithTheRequestedMapSize() throws {
    try withEnvironment(EnvironmentOptions(mapSize: 2 << 20)) { environment, path in
      let attributes = try FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      #expect(try environment.info().mapSize == 2 << 20)
      #expect(environment.maximumKeySize == 511)
    }
  }

  @Test func openingAMissingDirectoryFailsWithENOENT() {
    #expect(throws: LMDBError.system(errno: ENOENT)) {
      try Environment(path: "/nonexistent/kalends/\(UUID())")
    }
  }

  @Test func openingAFileThatIsNotLMDBFailsWithInvalid() throws {
    let directory = TemporaryDirectory()
    try Data(repeating: 0x5a, count: 64 * 1024).write(to: URL(fileURLWithPath: directory.path + "/data.mdb"))
    #expect(throws: LMDBError.invalid) { try Environment(path: directory.path) }
  }

  @Test func aReadOnlyEnvironmentRefusesWrites() throws {
    let directory = TemporaryDirectory()
    do {
      let writable = try Environment(path: directory.path)
      let db = try writable.openDatabase(named: "db")
      try writable.write { txn in try txn.put(bytes("v"), forKey: bytes("k"), in: db) }
    }
    let readOnly = try Environment(path: directory.path, options: EnvironmentOptions(readOnly: true))
    let db = try readOnly.openDatabase(named: "db", options: [])
    #expect(try readOnly.read { txn in try txn.value(forKey: bytes("k"), in: db) } == bytes("v"))
    #expect(throws: LMDBError.readOnly) {
      try readOnly.write { txn in try txn.put(bytes("w"), forKey: bytes("k"), in: db) }
    }
    #expect(throws: LMDBError.notFound) { try readOnly.openDatabase(named: "missing", options: [.create]) }
  }

  @Test func tooManyNamedDatabasesFailsWithDatabasesFull() throws {
    try withEnvironment(EnvironmentOptions(maxDatabases: 1, durability: .noSync)) { environment, _ in
      _ = try environment.openDatabase(named: "one")
      #expect(throws: LMDBError.databasesFull) { try environment.openDatabase(named: "two") }
    }
  }

  @Test func moreReadersThanSlotsFailsWithReadersFull() throws {
    try withEnvironment(EnvironmentOptions(maxReaders: 1, durability: .noSync)) { environment, _ in
      #expect(throws: LMDBError.readersFull) {
        try environment.read { _ in try environment.read { _ in () } }
      }
    }
  }

  @Test func aCopyHoldsEveryCommittedEntry() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in
        for index in 0..<500 as Range<UInt64> {
          try txn.put(bytes("value \(index)"), forKey: BigEndianKey(index), in: db)
        }
      }
      let destination = TemporaryDirectory()
      try environment.copy(to: destination.path, compacting: true)
      let copy = try Environment(path: destination.path, options: EnvironmentOptions(readOnly: true))
      let copied = try copy.openDatabase(named: "db", options: [])
      try copy.read { txn in
        do {
          let actual = try txn.statistics(of: copied).entries
          #expect(actual == 500)
        }
        do {
          let actual = try txn.value(forKey: BigEndianKey(UInt64(499)), in: copied)
          #expect(actual == bytes("value 499"))
        }
      }
    }
  }

  @Test func syncAndStatisticsWorkOnAnOpenEnvironment() throws {
    try withEnvironment { environment, _ in
      try environment.sync(force: true)
      let statistics = try environment.statistics()
      #expect(statistics.pageSize >= 4096)
      #expect(try environment.clearStaleReaders() == 0)
    }
  }
}
