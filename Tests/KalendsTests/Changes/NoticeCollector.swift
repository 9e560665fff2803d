import Foundation
import Kalends
import Synchronization

/// Iterates a change stream in a task of its own, keeping every notice (and the error that ended
/// it) for the test to inspect.
final class NoticeCollector: Sendable {
  private struct State {
    var notices: [ChangeNotice] = []
    var error: StoreError?
    var ended = false
  }

  private let state = Mutex(State())
  private let task = Mutex<Task<Void, Never>?>(nil)

  /// Starts iterating `stream`; with `delay`, waits that long before each `next()` (a slow subscriber).
  init(_ stream: ChangeStream, delay: Duration = .zero) {
    let handle = Task { [weak self] in
      var iterator = stream.makeAsyncIterator()
      do throws(StoreError) {
        while let notice = try await iterator.next() {
          self?.state.withLock { $0.notices.append(notice) }
          // A slow subscriber, when asked for: the behaviour some tests put under load.
          if delay > .zero { try? await Task.sleep(for: delay) }
        }
      } catch {
        self?.state.withLock { $0.error = error }
      }
      self?.state.withLock { $0.ended = true }
    }
    task.withLock { $0 = handle }
  }

  deinit { task.withLock { $0?.cancel() } }

  var notices: [ChangeNotice] { state.withLock { $0.notices } }
  var error: StoreError? { state.withLock { $0.error } }
  var ended: Bool { state.withLock { $0.ended } }

  /// Stops the subscription.
  func cancel() { task.withLock { $0?.cancel() } }

  /// Waits up to `seconds` until `condition` holds for the notices so far; returns whether it did.
  /// The bound is against a hang, not a latency, and counts only the time this waiter was awake
  /// to look (at most 20 ms per look): tests running beside this one that block the cooperative
  /// pool's threads (two on two cores) can hold both the collector and this waiter back for
  /// minutes, as CI showed, and that time is no evidence of a hang. A test of latency states its
  /// own bound.
  @discardableResult
  func wait(seconds: Double = 180, until condition: ([ChangeNotice]) -> Bool) async -> Bool {
    let clock = ContinuousClock()
    var budget = Duration.seconds(seconds)
    while budget > .zero {
      if condition(notices) { return true }
      let before = clock.now
      try? await Task.sleep(for: .milliseconds(2))
      budget -= min(clock.now - before, .milliseconds(20))
    }
    return condition(notices)
  }

  /// Waits until the notices cover `position`.
  @discardableResult
  func wait(seconds: Double = 180, through position: LogPosition) async -> Bool {
    await wait(seconds: seconds) { notices in (notices.last?.positions.upperBound ?? .none) >= position }
  }

  /// Every object change heard, merged in order.
  var merged: [ChangedObject: ChangeKind] {
    var all: [ChangedObject: ChangeKind] = [:]
    for notice in notices { all.merge(notice.changes) { _, new in new } }
    return all
  }
}
