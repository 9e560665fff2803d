import Foundation
import Kalends
import KalendsTestSupport
import LMDB
import Testing

@Suite("Opening stores")
struct StoreOpeningTests {
  @Test func openingWhereThereIsNoStoreFailsWithNotFound() {
    let directory = TemporaryDirectory()
    #expect(throws: StoreError.storeNotFound(path: directory.storePath)) {
      try Store.open(at: directory.storePath)
    }
    #expect(throws: StoreError.storeNotFound(path: directory.path)) { try Store.open(at: directory.path) }
  }

  @Test func creatingTwiceFailsWithAlreadyExistsAndKeepsTheFirst() throws {
    try withStore { store, path in
      try store.append(.annotation("keep me"))
      #expect(throws: StoreError.storeAlreadyExists(path: path)) { try Store.create(at: path) }
      let reopened = try Store.open(at: path)
      #expect(reopened.id == store.id)
      #expect(try reopened.head().position == 2)
    }
  }

  @Test func openOrCreateCreatesOnceThenOpens() throws {
    let directory = TemporaryDirectory()
    let first = try Store.openOrCreate(at: directory.storePath)
    let second = try Store.openOrCreate(at: directory.storePath)
    #expect(first.id == second.id)
    #expect(try second.head().position == 1)
  }

  @Test func aFileThatIsNotLMDBIsNotAStore() throws {
    let directory = TemporaryDirectory()
    try Data(repeating: 0x42, count: 32 * 1024).write(to: URL(fileURLWithPath: directory.path + "/data.mdb"))
    do {
      _ = try Store.open(at: directory.path)
      Issue.record("garbage opened as a store")
    } catch {
      guard case .notAStore = error else { throw error }
      #expect(error.category == .integrity)
    }
  }

  @Test func anLMDBFileWithoutALogIsNotAStore() throws {
    let directory = TemporaryDirectory()
    do {
      let environment = try Environment(path: directory.path)
      _ = try environment.openDatabase(named: "other")
    }
    do {
      _ = try Store.open(at: directory.path)
      Issue.record("a foreign LMDB file opened as a store")
    } catch {
      guard case .notAStore = error else { throw error }
    }
  }

  @Test func aStoreFromANewerLayoutIsRefusedWithAnUpgradeHint() throws {
    let directory = TemporaryDirectory()
    _ = try Store.create(at: directory.storePath)
    do {
      let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
      let meta = try environment.openDatabase(named: "meta", options: [])
      try environment.write { txn in
        try txn.put([0, 0, 0, 0, 0, 0, 0, 2], forKey: Array("layout".utf8), in: meta)
      }
    }
    #expect(throws: StoreError.unsupportedStoreFormat(found: 2, supported: 1)) {
      try Store.open(at: directory.storePath)
    }
  }

  @Test func aReadOnlyStoreReadsAndVerifiesButRefusesWrites() throws {
    let directory = TemporaryDirectory()
    let writable = try Store.create(at: directory.storePath)
    try writable.append(.annotation("before"))
    let readOnly = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true))
    #expect(try readOnly.head().position == 2)
    #expect(try readOnly.verify().isIntact)
    #expect(throws: StoreError.readOnly) { try readOnly.append(.annotation("refused")) }
    #expect(try writable.head().position == 2)
  }
}
