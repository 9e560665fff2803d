import Foundation
import Kalends
import Synchronization

/// Measures the writer's rate of single-event saves with subscribers attached.
enum ChangeThroughputProbe {
  /// Saves `writes` events, one transaction each, with `subscribers` subscriptions consuming every
  /// notice in this process; returns saves per second.
  static func run(store path: String, durability: StoreOptions.Durability, writes: Int, subscribers: Int) async throws
    -> Double
  {
    let store = try Store.create(at: path, options: StoreOptions(durability: durability))
    let writer = EventStore(store: store)
    let calendar = try BenchWriter.calendar(in: writer)
    let start = try store.head().position.next
    let heard = HeardCount()
    let tasks = (0..<subscribers).map { _ in
      Task {
        var notices = store.changes(from: start).makeAsyncIterator()
        while let notice = try? await notices.next() { heard.count.add(notice.recordCount, ordering: .relaxed) }
      }
    }
    // Let the subscriptions start before the clock does.
    try await Task.sleep(for: .milliseconds(50))
    let seconds = try await ChangeLatencyProbe.onThread {
      let began = BenchWriter.monotonicNanoseconds()
      for index in 0..<writes { try BenchWriter.saveOne(index, in: calendar, with: writer) }
      return Double(BenchWriter.monotonicNanoseconds() - began) / 1e9
    }
    for task in tasks { task.cancel() }
    return Double(writes) / seconds
  }
}

/// How many records the subscribers heard about (so their work is not optimised away).
final class HeardCount: Sendable {
  let count = Atomic<Int>(0)
}
