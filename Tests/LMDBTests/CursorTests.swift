import LMDB
import Testing

@Suite("Cursors")
struct CursorTests {
  /// A database with keys 10, 20, …, 100 (u64 big-endian), each valued "v<key>".
  func withTens(_ body: (Environment, Database) throws -> Void) throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "tens")
      try environment.write { txn in
        for key in stride(from: 10, through: 100, by: 10) {
          try txn.put(bytes("v\(key)"), forKey: BigEndianKey(UInt64(key)), in: db, options: .append)
        }
      }
      try body(environment, db)
    }
  }

  func key(_ cursor: borrowing Cursor) throws -> UInt64 {
    try cursor.withCurrent { key, _ in BigEndianKey<UInt64>(key)!.value }
  }

  @Test func firstLastNextAndPreviousWalkTheKeysInOrder() throws {
    try withTens { environment, db in
      try environment.read { txn in
        try txn.withCursor(on: db) { cursor in
          do {
            let actual = try cursor.first()
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 10)
          }
          do {
            let actual = try cursor.next()
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 20)
          }
          do {
            let actual = try cursor.last()
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 100)
          }
          do {
            let actual = try cursor.next()
            #expect(!actual)
          }
          do {
            _ = try cursor.currentKey()
            Issue.record("an unpositioned cursor has no current key")
          } catch let error as LMDBError {
            #expect(error == .notFound)
          }
          #expect(try cursor.previous())  // from unpositioned: the last
          do {
            let actual = try key(cursor)
            #expect(actual == 100)
          }
          do {
            let actual = try cursor.previous()
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 90)
          }
          do {
            let actual = try cursor.currentValue()
            #expect(actual == bytes("v90"))
          }
        }
      }
    }
  }

  @Test func seekFindsTheFirstKeyAtLeastTheExactKeyAndTheLastKeyAtMost() throws {
    try withTens { environment, db in
      try environment.read { txn in
        try txn.withCursor(on: db) { cursor in
          do {
            let actual = try cursor.seek(atLeast: BigEndianKey(UInt64(35)))
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 40)
          }
          do {
            let actual = try cursor.seek(atLeast: BigEndianKey(UInt64(40)))
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 40)
          }
          do {
            let actual = try cursor.seek(atLeast: BigEndianKey(UInt64(101)))
            #expect(!actual)
          }
          do {
            let actual = try cursor.seek(exactly: BigEndianKey(UInt64(70)))
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 70)
          }
          do {
            let actual = try cursor.seek(exactly: BigEndianKey(UInt64(75)))
            #expect(!actual)
          }
          do {
            let actual = try cursor.seek(atMost: BigEndianKey(UInt64(75)))
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 70)
          }
          do {
            let actual = try cursor.seek(atMost: BigEndianKey(UInt64(80)))
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 80)
          }
          do {
            let actual = try cursor.seek(atMost: BigEndianKey(UInt64(1000)))
            #expect(actual)
          }
          do {
            let actual = try key(cursor)
            #expect(actual == 100)
          }
          do {
            let actual = try cursor.seek(atMost: BigEndianKey(UInt64(9)))
            #expect(!actual)
          }
        }
      }
    }
  }

  @Test func scansVisitFromTheCurrentPositionUntilTold() throws {
    try withTens { environment, db in
      try environment.read { txn in
        try txn.withCursor(on: db) { cursor in
          var forward: [UInt64] = []
          _ = try cursor.seek(atLeast: BigEndianKey(UInt64(70)))
          let visited = try cursor.scanForward { key, _ in
            forward.append(BigEndianKey<UInt64>(key)!.value)
            return .continue
          }
          #expect(forward == [70, 80, 90, 100])
          #expect(visited == 4)

          var backward: [UInt64] = []
          try cursor.scanBackward { key, _ in
            backward.append(BigEndianKey<UInt64>(key)!.value)
            return backward.count < 3 ? .continue : .stop
          }
          #expect(backward == [100, 90, 80])

          var all: [UInt64] = []
          do {
            let actual = try cursor.seek(atLeast: BigEndianKey(UInt64(1000)))
            #expect(!actual)
          }
          try cursor.scanForward { key, _ in
            all.append(BigEndianKey<UInt64>(key)!.value)
            return .continue
          }
          #expect(all == Array(stride(from: 10, through: 100, by: 10)))
        }
      }
    }
  }

  @Test func aCursorInAWriteTransactionSeesItsWrites() throws {
    try withTens { environment, db in
      try environment.write { txn in
        try txn.put(bytes("v5"), forKey: BigEndianKey(UInt64(5)), in: db)
        let first = try txn.withCursor(on: db) { cursor -> UInt64 in
          _ = try cursor.first()
          return try key(cursor)
        }
        #expect(first == 5)
      }
    }
  }

  @Test func aReservedPutStoresWhatItsFillWrites() throws {
    try withTens { environment, db in
      try environment.write { txn in
        try txn.withCursor(on: db) { cursor in
          try cursor.put(reserving: 3, forKey: BigEndianKey(UInt64(110)), options: .append) { buffer in
            buffer.copyBytes(from: [7, 8, 9])
          }
          // A key out of order fails the append, and its fill is not called.
          var called = false
          #expect(throws: LMDBError.keyExists) {
            try cursor.put(reserving: 2, forKey: BigEndianKey(UInt64(15)), options: .append) { _ in called = true }
          }
          #expect(!called)
        }
      }
      let stored = try environment.read { txn in try txn.value(forKey: BigEndianKey(UInt64(110)), in: db) }
      #expect(stored == [7, 8, 9])
      let skipped = try environment.read { txn in try txn.value(forKey: BigEndianKey(UInt64(15)), in: db) }
      #expect(skipped == nil)
    }
  }

  @Test func anEmptyDatabaseHasNoFirstOrLast() throws {
    try withEnvironment { environment, _ in
      let db = try environment.openDatabase(named: "empty")
      try environment.read { txn in
        try txn.withCursor(on: db) { cursor in
          do {
            let actual = try cursor.first()
            #expect(!actual)
          }
          do {
            let actual = try cursor.last()
            #expect(!actual)
          }
          do {
            let actual = try cursor.scanForward { _, _ in .continue }
            #expect(actual == 0)
          }
        }
      }
    }
  }
}
