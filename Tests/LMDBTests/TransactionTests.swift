import LMDB
import Testing

struct Rollback: Error {}

@Suite("Transactions")
struct TransactionTests {
  @Test func putThenGetReturnsTheValueAndAbsentKeysReturnNil() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in
        try txn.put(bytes("one"), forKey: bytes("a"), in: db)
        #expect(try txn.value(forKey: bytes("a"), in: db) == bytes("one"))  // a write sees its own writes
      }
      try environment.read { txn in
        do {
          let actual = try txn.value(forKey: bytes("a"), in: db)
          #expect(actual == bytes("one"))
        }
        do {
          let actual = try txn.value(forKey: bytes("b"), in: db)
          #expect(actual == nil)
        }
        do {
          let actual = try txn.contains(bytes("a"), in: db)
          #expect(actual)
        }
        do {
          let actual = try txn.contains(bytes("b"), in: db)
          #expect(!actual)
        }
        #expect(try txn.withValue(forKey: bytes("a"), in: db) { $0.byteCount } == 3)
      }
    }
  }

  @Test func putOverwritesUnlessNoOverwriteIsGiven() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in try txn.put(bytes("one"), forKey: bytes("a"), in: db) }
      try environment.write { txn in try txn.put(bytes("two"), forKey: bytes("a"), in: db) }
      #expect(throws: LMDBError.keyExists) {
        try environment.write { txn in try txn.put(bytes("three"), forKey: bytes("a"), in: db, options: .noOverwrite) }
      }
      #expect(try environment.read { try $0.value(forKey: bytes("a"), in: db) } == bytes("two"))
    }
  }

  @Test func aWriteThatThrowsLeavesNothingBehind() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in try txn.put(bytes("kept"), forKey: bytes("a"), in: db) }
      #expect(throws: Rollback.self) {
        try environment.write { txn in
          try txn.put(bytes("lost"), forKey: bytes("a"), in: db)
          try txn.put(bytes("lost"), forKey: bytes("b"), in: db)
          try txn.delete(bytes("a"), in: db)
          throw Rollback()
        }
      }
      try environment.read { txn in
        do {
          let actual = try txn.value(forKey: bytes("a"), in: db)
          #expect(actual == bytes("kept"))
        }
        do {
          let actual = try txn.value(forKey: bytes("b"), in: db)
          #expect(actual == nil)
        }
      }
    }
  }

  @Test func aWriteWhoseBodySwallowsAFatalErrorIsNotCommitted() throws {
    let options = EnvironmentOptions(mapSize: 64 << 10, growsMapAutomatically: false, durability: .noSync)
    try withEnvironment(options) { environment, _ in
      let db = try environment.openDatabase(named: "db")
      #expect(throws: LMDBError.mapFull) {
        try environment.write { txn in
          try txn.put(bytes("v"), forKey: bytes("a"), in: db)
          for index in 0..<20_000 as Range<UInt64> {
            _ = try? txn.put([UInt8](repeating: 1, count: 100), forKey: BigEndianKey(index), in: db)
          }
        }
      }
      #expect(try environment.read { try $0.value(forKey: bytes("a"), in: db) } == nil)
    }
  }

  @Test func aWriteWhoseBodySwallowsABenignErrorCommitsTheRest() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in try txn.put(bytes("old"), forKey: bytes("a"), in: db) }
      try environment.write { txn in
        _ = try? txn.put(bytes("new"), forKey: bytes("a"), in: db, options: .noOverwrite)
        try txn.put(bytes("v"), forKey: bytes("b"), in: db)
      }
      #expect(try environment.read { try $0.value(forKey: bytes("a"), in: db) } == bytes("old"))
      #expect(try environment.read { try $0.value(forKey: bytes("b"), in: db) } == bytes("v"))
    }
  }

  @Test func aReadSnapshotDoesNotSeeLaterCommits() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in try txn.put(bytes("old"), forKey: bytes("a"), in: db) }
      try environment.read { snapshot in
        try environment.write { txn in try txn.put(bytes("new"), forKey: bytes("a"), in: db) }
        do {
          let actual = try snapshot.value(forKey: bytes("a"), in: db)
          #expect(actual == bytes("old"))
        }
      }
      #expect(try environment.read { try $0.value(forKey: bytes("a"), in: db) } == bytes("new"))
    }
  }

  @Test func deleteRemovesKeysAndReportsWhetherTheyExisted() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in
        try txn.put(bytes("1"), forKey: bytes("a"), in: db)
        do {
          let actual = try txn.delete(bytes("a"), in: db)
          #expect(actual)
        }
        do {
          let actual = try txn.delete(bytes("a"), in: db)
          #expect(!actual)
        }
      }
      #expect(try environment.read { try $0.contains(bytes("a"), in: db) } == false)
    }
  }

  @Test func duplicateSortedDatabasesKeepSortedValuesAndDeleteOneOfThem() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "dups", options: [.create, .duplicateSort])
      try environment.write { txn in
        for value in ["c", "a", "b"] { try txn.put(bytes(value), forKey: bytes("k"), in: db) }
        #expect(throws: LMDBError.keyExists) {
          try txn.put(bytes("a"), forKey: bytes("k"), in: db, options: .noDuplicateData)
        }
      }
      try environment.write { txn in
        do {
          let actual = try txn.delete(bytes("k"), value: bytes("b"), in: db)
          #expect(actual)
        }
        do {
          let actual = try txn.delete(bytes("k"), value: bytes("z"), in: db)
          #expect(!actual)
        }
      }
      let values = try environment.read { txn in
        try txn.withCursor(on: db) { cursor in
          var values: [String] = []
          _ = try cursor.seek(exactly: bytes("k"))
          do {
            let actual = try cursor.duplicateCount()
            #expect(actual == 2)
          }
          try cursor.scanForward { _, value in
            values.append(String(decoding: Array(copying: value), as: UTF8.self))
            return .continue
          }
          return values
        }
      }
      #expect(values == ["a", "c"])
    }
  }

  @Test func removeAllEmptiesADatabaseButKeepsIt() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in
        for index in 0..<100 as Range<UInt64> { try txn.put(bytes("v"), forKey: BigEndianKey(index), in: db) }
      }
      try environment.write { txn in try txn.removeAll(in: db) }
      try environment.read { txn in
        do {
          let actual = try txn.statistics(of: db).entries
          #expect(actual == 0)
        }
        _ = try txn.openDatabase(named: "db")
      }
    }
  }

  @Test func appendRequiresKeysInOrder() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      try environment.write { txn in
        for index in 1...10 as ClosedRange<UInt64> {
          try txn.put(bytes("v"), forKey: BigEndianKey(index), in: db, options: .append)
        }
      }
      #expect(throws: LMDBError.keyExists) {
        try environment.write { txn in
          try txn.put(bytes("v"), forKey: BigEndianKey(UInt64(5)), in: db, options: .append)
        }
      }
      #expect(try environment.read { try $0.statistics(of: db).entries } == 10)
    }
  }

  @Test func openingAPlainValueAsADatabaseFailsWithIncompatible() throws {
    try withEnvironment { environment, _ in
      let main = try environment.openDatabase(named: nil)
      try environment.write { txn in try txn.put(bytes("not a database"), forKey: bytes("plain"), in: main) }
      #expect(throws: LMDBError.incompatible) { try environment.openDatabase(named: "plain") }
    }
  }

  @Test func keysLongerThanTheMaximumFailWithBadValueSize() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "db")
      #expect(throws: LMDBError.badValueSize) {
        try environment.write { txn in try txn.put(bytes("v"), forKey: [UInt8](repeating: 7, count: 512), in: db) }
      }
      #expect(throws: LMDBError.badValueSize) {
        try environment.write { txn in try txn.put(bytes("v"), forKey: [UInt8](), in: db) }
      }
    }
  }
}
