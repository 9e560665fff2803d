import Kalends
import Testing

@Suite("Store map growth")
struct MapGrowthStoreTests {
  @Test func appending100000RecordsFromATinyMapGrowsItAndKeepsTheChain() throws {
    let options = StoreOptions(durability: .noSync, initialMapSize: 64 << 10)
    try withStore(options) { store, _ in
      for batch in 0..<100 {
        try store.append(contentsOf: (0..<1_000).map { note(batch * 1_000 + $0) })
      }
      #expect(try store.head().position == 100_001)
      #expect(try store.status().mapSize > 64 << 10)
      let report = try store.verify()
      #expect(report.isIntact)
      #expect(report.recordsChecked == 100_001)
    }
  }

  @Test func oneBatchLargerThanTheMapCommitsOnceWithoutDuplicates() throws {
    let options = StoreOptions(durability: .noSync, initialMapSize: 64 << 10)
    try withStore(options) { store, _ in
      let headers = try store.append(contentsOf: (0..<5_000).map(note))
      #expect(headers.first?.position == 2)
      #expect(headers.last?.position == 5_001)
      #expect(try store.head().position == 5_001)
      #expect(try store.verify().isIntact)
    }
  }
}
