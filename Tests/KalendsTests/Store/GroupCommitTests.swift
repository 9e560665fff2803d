import Foundation
import Kalends
import Synchronization
import Testing

/// Concurrent writers of one store share commits, and each write stays all or nothing.
@Suite("Store: group commit")
struct GroupCommitTests {
  struct Refused: Error {}

  @Test func concurrentWritersAllCommitInOrderWithAnIntactChain() throws {
    try withStore(StoreOptions(durability: .full)) { store, _ in
      let before = try store.head().position.rawValue
      let failures = Mutex(0)
      // 16 threads of their own (a queue would run two at a time on two cores), 8 writes each.
      let finished = DispatchGroup()
      for thread in 0..<16 {
        finished.enter()
        Thread {
          defer { finished.leave() }
          for write in 0..<8 {
            do { try store.append(note(thread * 8 + write)) } catch { failures.withLock { $0 += 1 } }
          }
        }.start()
      }
      finished.wait()
      #expect(failures.withLock { $0 } == 0)
      #expect(try store.head().position.rawValue == before + 128)
      let texts = try store.records(from: LogPosition(before + 1), limit: 128).map { record in
        try namedFields(record)["text"].map { "\($0)" } ?? ""
      }
      #expect(Set(texts).count == 128, "every write once")
      #expect(try store.verify().isIntact)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func aWriteThatThrowsInAGroupIsUndoneAloneAndTheOthersShareOneCommit() throws {
    try withStore(StoreOptions(durability: .full)) { store, _ in
      let before = try store.head().position.rawValue
      // The first writer holds the lead long enough for the others to queue behind it: they form
      // the next group, in which writer 3 appends a record and then throws.
      let holding = DispatchSemaphore(value: 0)
      let first = Thread {
        _ = try? store.write { txn, appender in
          holding.signal()
          Thread.sleep(forTimeInterval: 0.3)
          return try appender.append(note(0), in: &txn)
        }
      }
      first.start()
      holding.wait()
      let outcomes = Mutex<[Int: Bool]>([:])
      let finished = DispatchGroup()
      for writer in 1...6 {
        finished.enter()
        Thread {
          defer { finished.leave() }
          do {
            try store.write { txn, appender in
              _ = try appender.append(note(writer), in: &txn)
              if writer == 3 { throw Refused() }
            }
            outcomes.withLock { $0[writer] = true }
          } catch {
            outcomes.withLock { $0[writer] = error is Refused ? false : nil }
          }
        }.start()
      }
      finished.wait()
      while try store.head().position.rawValue < before + 6 { Thread.sleep(forTimeInterval: 0.01) }
      let results = outcomes.withLock { $0 }
      #expect(results[3] == false, "the throwing writer gets its own error")
      #expect((1...6).filter { $0 != 3 }.allSatisfy { results[$0] == true })
      let records = try store.records(from: LogPosition(before + 1), limit: 10)
      #expect(records.count == 6, "the holder's and five others'")
      let texts = try records.compactMap { try namedFields($0)["text"] }.map { "\($0)" }
      #expect(!texts.contains { $0.contains("note 3:") }, "the refused write left nothing")
      // The five queued writes committed together: one transaction stamps its records alike.
      #expect(texts.first?.contains("note 0:") == true, "the holder's group of one commits first")
      let queued = records.dropFirst()
      #expect(Set(queued.map(\.header.timestamp)).count == 1, "\(queued.map(\.header.timestamp))")
      #expect(try store.verify().isIntact)
      #expect(try store.verifyProjections().isConsistent)
    }
  }
}
