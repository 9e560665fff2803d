@_spi(Internals) import Kalends
import Testing

@Suite("Appending to the log")
struct LogAppendTests {
  @Test func aNewStoreStartsWithItsCreationRecordChainedToGenesis() throws {
    try withStore { store, _ in
      let head = try store.head()
      #expect(head.position == 1)
      let first = try store.record(at: 1)
      #expect(first.kind == .storeCreated)
      #expect(first.principal == .system)
      #expect(first.previousHash == .genesis)
      #expect(first.hash == head.hash)
      #expect(try first.payload.first(tag: 1)?.value == store.id.bytes)
    }
  }

  @Test func appendsTakeTheNextPositionsAndChainToEachOther() throws {
    try withStore { store, _ in
      let one = try store.append(.annotation("one"))
      let batch = try store.append(contentsOf: (0..<5).map(note))
      #expect(one.position == 2)
      #expect(batch.map(\.position) == [3, 4, 5, 6, 7])
      #expect(batch[0].previousHash == one.hash)
      for (earlier, later) in zip(batch, batch.dropFirst()) { #expect(later.previousHash == earlier.hash) }
      #expect(try store.head() == LogHead(position: 7, hash: batch[4].hash))
    }
  }

  @Test func recordsReadBackAsAppended() throws {
    try withStore { store, _ in
      let drafts = [
        RecordDraft.annotation("by the person"),
        RecordDraft.annotation("by an app — ünïcödé ✓", by: .client("com.example.planner")),
        RecordDraft.annotation("by a policy", by: .policy("mdm:school")),
        RecordDraft(kind: RecordKind(rawValue: 9_999), principal: .system, payload: Payload(bytes: [])),
      ]
      let headers = try store.append(contentsOf: drafts)
      let records = try store.records(from: 2, limit: 10)
      #expect(records.map(\.header) == headers)
      #expect(records.map(\.principal) == drafts.map(\.principal))
      #expect(records.map(\.payload) == drafts.map(\.payload))
      #expect(records[3].kind.name == "kind#9999")
      #expect(try store.lastRecords(2).map(\.position) == [4, 5])
      #expect(try store.record(at: 3) == records[1])
    }
  }

  @Test func aBatchSharesOneCommitTimestamp() throws {
    try withStore { store, _ in
      let headers = try store.append(contentsOf: (0..<3).map(note))
      #expect(Set(headers.map(\.timestamp)).count == 1)
      #expect(headers[0].timestamp >= (try store.record(at: 1)).timestamp)
    }
  }

  @Test func invalidPrincipalsAreRejectedAndNothingIsWritten() throws {
    try withStore { store, _ in
      let before = try store.head()
      let bad: [Principal] = [.client(""), .client(String(repeating: "a", count: 256)), .policy("tab\there")]
      for principal in bad {
        #expect(throws: StoreError.self) {
          try store.append(contentsOf: [.annotation("fine"), .annotation("bad", by: principal)])
        }
      }
      #expect(try store.head() == before)
      #expect(try store.verify().isIntact)
    }
  }

  @Test func anOversizedPayloadIsRejectedWithAClearError() throws {
    try withStore { store, _ in
      var payload = Payload()
      payload.append(tag: 1, bytes: [UInt8](repeating: 0, count: (16 << 20) + 1))
      do {
        try store.append(RecordDraft(kind: .annotationAdded, principal: .person, payload: payload))
        Issue.record("an oversized payload was accepted")
      } catch let error as StoreError {
        #expect(error.category == .invalidInput)
        #expect(error.description.contains("payload"))
      }
      #expect(try store.head().position == 1)
    }
  }

  @Test func aWriteThatThrowsAppendsNothing() throws {
    struct Abort: Error {}
    try withStore { store, _ in
      let before = try store.head()
      #expect(throws: Abort.self) {
        try store.write { txn, appender in
          for index in 0..<100 { try appender.append(note(index), in: &txn) }
          throw Abort()
        }
      }
      #expect(try store.head() == before)
      #expect(throws: StoreError.recordNotFound(2, head: 1)) { try store.record(at: 2) }
      #expect(try store.verify().isIntact)
    }
  }

  @Test func readingOutsideTheLogSaysWhichPositionsExist() throws {
    try withStore { store, _ in
      #expect(throws: StoreError.recordNotFound(0, head: 1)) { try store.record(at: 0) }
      #expect(throws: StoreError.recordNotFound(5, head: 1)) { try store.record(at: 5) }
      let beyond = try store.records(from: 5, limit: 10)
      let none = try store.lastRecords(0)
      #expect(beyond.isEmpty)
      #expect(none.isEmpty)
    }
  }

  @Test func replayVisitsEveryRecordFromAPositionInOrder() throws {
    try withStore { store, _ in
      try store.append(contentsOf: (0..<1_000).map(note))
      var positions: [UInt64] = []
      let visited = try store.replay(from: 500) { header, payload in
        #expect(payload.byteCount > 90)
        positions.append(header.position.rawValue)
        return .continue
      }
      #expect(visited == 502)
      #expect(positions == Array(500...1_001))
    }
  }
}
