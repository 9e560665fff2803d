import Kalends
import KalendsTestSupport
import LMDB
import Testing

/// Damage done to a closed store through LMDB directly, as a disk error or an attacker would.
enum Damage {
  static func withLog(_ path: String, _ body: (inout WriteTransaction, Database, Database) throws -> Void) throws {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let log = try environment.openDatabase(named: "log", options: [])
    let meta = try environment.openDatabase(named: "meta", options: [])
    try environment.write { txn in try body(&txn, log, meta) }
  }

  /// Flips one bit of the byte at `offset` of the record at `position` (negative: from the end).
  static func flipByte(of position: UInt64, at offset: Int, in path: String) throws {
    try withLog(path) { txn, log, _ in
      var value = try #require(try txn.value(forKey: BigEndianKey(position), in: log))
      let index = offset >= 0 ? offset : value.count + offset
      value[index] ^= 0x01
      try txn.put(value, forKey: BigEndianKey(position), in: log)
    }
  }

  static func delete(_ position: UInt64, in path: String) throws {
    try withLog(path) { txn, log, _ in try txn.delete(BigEndianKey(position), in: log) }
  }
}

@Suite("Verifying the chain")
struct VerifyTests {
  /// A closed store of 1 + 20 records at a path, for damaging.
  func withDamageableStore(_ body: (String) throws -> Void) throws {
    let directory = TemporaryDirectory()
    do {
      let store = try Store.create(at: directory.storePath)
      try store.append(contentsOf: (0..<20).map(note))
    }
    try body(directory.storePath)
  }

  func problem(at path: String) throws -> IntegrityProblem? {
    try Store.open(at: path, options: StoreOptions(readOnly: true)).verify().problem
  }

  @Test func anIntactStoreVerifies() throws {
    try withDamageableStore { path in
      let store = try Store.open(at: path)
      let report = try store.verify()
      #expect(report.isIntact)
      #expect(report.recordsChecked == 21)
      #expect(report.verifiedHead == (try store.head()))
      #expect(report.recordedHead == report.verifiedHead)
    }
  }

  /// Offsets into a person's record: 12 is inside the timestamp, 40 inside the payload, -40 inside the
  /// previous hash (the last 64 bytes are the previous hash and the record's own).
  @Test(arguments: [12, 40, -40])
  func aSingleFlippedByteIsDetectedAtItsPosition(offset: Int) throws {
    try withDamageableStore { path in
      try Damage.flipByte(of: 12, at: offset, in: path)
      let found = try #require(try problem(at: path))
      #expect(found.position == 12)
      #expect(found.kind == (offset == -40 ? .brokenChain : .hashMismatch))
    }
  }

  @Test func aFlippedByteInTheStoredHashIsDetected() throws {
    try withDamageableStore { path in
      try Damage.flipByte(of: 7, at: -1, in: path)
      let found = try #require(try problem(at: path))
      #expect(found.position == 7)
      #expect(found.kind == .hashMismatch)
    }
  }

  @Test func aFlippedByteInAPositionFieldIsDetected() throws {
    try withDamageableStore { path in
      try Damage.flipByte(of: 9, at: 8, in: path)
      let found = try #require(try problem(at: path))
      #expect(found.position == 9)
      #expect(found.kind == .positionMismatch)
    }
  }

  @Test func aFlippedByteInALengthFieldIsReportedAsMalformed() throws {
    try withDamageableStore { path in
      try Damage.flipByte(of: 5, at: 22, in: path)  // inside the payload length (u32 at 22 for a person)
      let found = try #require(try problem(at: path))
      #expect(found.position == 5)
      #expect(found.kind == .malformedRecord)
    }
  }

  @Test func aDeletedRecordInTheMiddleIsReportedMissing() throws {
    try withDamageableStore { path in
      try Damage.delete(10, in: path)
      let found = try #require(try problem(at: path))
      #expect(found.position == 10)
      #expect(found.kind == .missingRecord)
    }
  }

  @Test func aDeletedLastRecordIsReportedMissingAgainstTheHead() throws {
    try withDamageableStore { path in
      try Damage.delete(21, in: path)
      let found = try #require(try problem(at: path))
      #expect(found.position == 21)
      #expect(found.kind == .missingRecord)
    }
  }

  @Test func aDamagedStoreRefusesAppendsUntilRepaired() throws {
    try withDamageableStore { path in
      try Damage.delete(21, in: path)
      let store = try Store.open(at: path)
      do {
        try store.append(.annotation("after the damage"))
        Issue.record("appended to a damaged log")
      } catch let error as StoreError {
        #expect(error.category == .integrity)
      }
    }
  }

  @Test func aReplacedGenesisRecordIsDetected() throws {
    try withDamageableStore { path in
      // Rewrite record 1 as a valid-looking record from another store: correct hash, wrong identity.
      let other = TemporaryDirectory()
      let foreign = try Store.create(at: other.storePath)
      let foreignBytes = try foreign.environmentValue(at: 1)
      try Damage.withLog(path) { txn, log, _ in try txn.put(foreignBytes, forKey: BigEndianKey(UInt64(1)), in: log) }
      let found = try #require(try problem(at: path))
      #expect(found.position == 1)
      #expect(found.kind == .genesisMismatch)
    }
  }
}

extension Store {
  /// The stored bytes of a record, through LMDB (tests only).
  func environmentValue(at position: UInt64) throws -> [UInt8] {
    let environment = try Environment(
      path: path, options: EnvironmentOptions(maxDatabases: 64, readOnly: true))
    let log = try environment.openDatabase(named: "log", options: [])
    return try #require(try environment.read { try $0.value(forKey: BigEndianKey(position), in: log) })
  }
}
