internal import Foundation
package import Synchronization

/// Wakes the subscribers of one store directory in this process when the store may have changed,
/// whichever process wrote it.
///
/// One watcher thread per store directory, running while it has subscribers: on Linux it waits on
/// an inotify watch of `data.mdb` — LMDB writes its pages and, last, the meta page that publishes
/// the commit with `pwrite`, so every commit by any process raises `IN_MODIFY` right after it is
/// visible — and otherwise on a timer. Each wake bumps a generation counter and resumes the
/// waiting subscribers, which then read the log head (one read transaction) and fetch what is new.
/// The writer does nothing for it. The watcher reads the head (one read transaction) at each event
/// and wakes the subscribers only when it moved, at most once per millisecond (more apart with
/// more than 25 subscribers in the process). A modification that does not show a new head yet is
/// looked at again, 50 µs later and then less often, for about 50 ms: LMDB publishes a commit to
/// readers (in the shared memory of `lock.mdb`, which raises no event) just after the meta page's
/// write. A slow timer
/// (1 s) does the same as a safety net for a missed event (a `data.mdb` replaced by a restore, an
/// exhausted inotify limit).
package final class ChangeSignal: Sendable {
  /// How often the watcher wakes without an event: a safety net with inotify, the only means without.
  static let defaultSafetyInterval: Int32 = 1_000
  static let pollingInterval: Int32 = 5

  private struct Waiter {
    var seen: UInt64
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var generation: UInt64 = 0
    var subscribers = 0
    var watching = false
    var nextWaiter: UInt64 = 0
    var pending: Set<UInt64> = []
    var cancelled: Set<UInt64> = []
    var waiters: [UInt64: Waiter] = [:]
  }

  private static let registry = Mutex<[String: ChangeSignal]>([:])

  /// The signal of the store in `directory`, shared by every subscriber in this process.
  package static func shared(for directory: String) -> ChangeSignal {
    let key = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
    return registry.withLock { all in
      if let signal = all[key] { return signal }
      let signal = ChangeSignal(directory: key)
      all[key] = signal
      return signal
    }
  }

  let directory: String
  private let state = Mutex(State())
  /// This store's safety interval, in milliseconds; tests lengthen it to show that no notice waits
  /// for it.
  package let safetyInterval = Atomic<Int32>(ChangeSignal.defaultSafetyInterval)

  private init(directory: String) { self.directory = directory }

  /// The records the watcher decoded lately, shared by the subscribers of this process.
  private struct RecordCache {
    /// The position of `records[0]`.
    var first: UInt64
    var records: [DecodedRecord]

    /// The last position it holds.
    var through: UInt64 { first + UInt64(records.count) - 1 }

    static let capacity = 16_384

    mutating func append(_ new: [DecodedRecord]) {
      records += new
      if records.count > Self.capacity {
        let drop = records.count - Self.capacity / 2
        records.removeFirst(drop)
        first += UInt64(drop)
      }
    }
  }

  private let cache = Mutex<RecordCache?>(nil)

  /// The decoded records after `cursor` up to the last the watcher announced (empty: nothing
  /// new), or `nil` when the cache does not reach back to `cursor` (read the log instead).
  func cached(after cursor: LogPosition) -> ArraySlice<DecodedRecord>? {
    cache.withLock { cache -> ArraySlice<DecodedRecord>? in
      guard let cache, cursor.rawValue + 1 >= cache.first, cursor.rawValue <= cache.through else { return nil }
      // A copy of the pending part only: a slice would share the cache's buffer, and the next
      // append would then copy all of it.
      return Array(cache.records[Int(cursor.rawValue + 1 - cache.first)...])[...]
    }
  }

  /// The current generation: a wait with it returns at the next wake.
  package var generation: UInt64 { state.withLock { $0.generation } }

  /// Adds a subscriber, starting the watcher thread when it is the first; `head` reads the log
  /// head (the watcher wakes subscribers only when it moved).
  package func subscribe(
    head: @escaping @Sendable () -> UInt64,
    read: @escaping @Sendable (ClosedRange<LogPosition>) throws(StoreError) -> [DecodedRecord]
  ) {
    let start = state.withLock { state -> Bool in
      state.subscribers += 1
      guard !state.watching else { return false }
      state.watching = true
      return true
    }
    if start {
      // Watch, and read the head, before the subscriber first looks at it: a commit after that
      // look moves the head past what the watcher knows, so it cannot go unannounced.
      let watcher = FileWatcher(path: directory + "/data.mdb")
      let known = head()
      cache.withLock { $0 = RecordCache(first: known + 1, records: []) }
      let thread = Thread { [self] in watch(watcher, known: known, head: head, read: read) }
      thread.name = "kalends-changes"
      thread.start()
    }
  }

  /// Removes a subscriber; the watcher stops within a safety interval after the last one.
  package func unsubscribe() {
    state.withLock { $0.subscribers -= 1 }
  }

  /// Returns once the generation is past `seen`, or when the task is cancelled.
  func wait(after seen: UInt64) async {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiter += 1
      state.pending.insert(state.nextWaiter)
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          state.pending.remove(id)
          if state.generation > seen || state.cancelled.remove(id) != nil { return true }
          state.waiters[id] = Waiter(seen: seen, continuation: continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
        if state.pending.contains(id) { state.cancelled.insert(id) }
        return nil
      }
      waiter?.continuation.resume()
    }
  }

  /// Starts a new generation and wakes every waiter.
  func bump() {
    let woken = state.withLock { state -> [Waiter] in
      state.generation += 1
      let woken = Array(state.waiters.values)
      state.waiters.removeAll(keepingCapacity: true)
      return woken
    }
    for waiter in woken { waiter.continuation.resume() }
  }

  /// The watcher thread: waits for a change of `data.mdb` (or the timer), and when the head moved
  /// bumps — at most once per ``minimumInterval``, so that a fast writer wakes each subscriber a
  /// bounded number of times per second (its next notice covers everything since) — and stops when
  /// no subscriber is left.
  private func watch(
    _ watcher: FileWatcher, known: UInt64, head: @Sendable () -> UInt64,
    read: @Sendable (ClosedRange<LogPosition>) throws(StoreError) -> [DecodedRecord]
  ) {
    defer { watcher.close() }
    var lastHead = known
    var lastBump: UInt64 = 0
    // Quick looks left after a modification that did not move the head (see ``settleChecks``).
    var settling = 0
    while true {
      let safety = Int(safetyInterval.load(ordering: .relaxed)) * 1_000
      let timeout =
        !watcher.isWatching
        ? Int(Self.pollingInterval) * 1_000 : settling > 0 ? Self.settleDelay(settling) : safety
      let woken = watcher.wait(microseconds: timeout)
      let subscribers = UInt64(max(0, state.withLock { $0.subscribers }))
      let interval = max(Self.minimumInterval, subscribers * Self.intervalPerSubscriber)
      let elapsed = Self.monotonicNanoseconds() &- lastBump
      if elapsed < interval { usleep(UInt32((interval - elapsed) / 1_000)) }
      let current = head()
      // The safety timer wakes everyone regardless: whatever was missed, it is found within a second.
      if current > lastHead {
        // Decode the new records once for every subscriber of this process.
        let records = try? read(LogPosition(lastHead + 1)...LogPosition(current))
        cache.withLock { cache in
          guard let records, records.count == Int(current - lastHead), cache?.through == lastHead else {
            cache = nil
            return
          }
          cache?.append(records)
        }
      } else if current < lastHead {
        cache.withLock { $0 = nil }
      }
      // LMDB publishes a commit to readers in its lock file's shared memory just after it writes
      // the meta page to data.mdb, and the write's event can wake this thread in between: a
      // modification that shows no new head is looked at again shortly, for a while.
      if current != lastHead {
        settling = 0
      } else if woken {
        settling = Self.settleChecks
      } else if settling > 0 {
        settling -= 1
      }
      if current != lastHead || (!woken && timeout == safety) {
        lastHead = current
        lastBump = Self.monotonicNanoseconds()
        bump()
      }
      let stop = state.withLock { state -> Bool in
        guard state.subscribers <= 0 else { return false }
        state.watching = false
        return true
      }
      if stop { return }
    }
  }

  /// How many times the watcher looks at the head again after a modification of `data.mdb` that
  /// did not move it (``settleDelay(_:)`` apart, about 50 ms in all): the data pages of a commit
  /// are written (and with fsync, flushed) before its meta page, and the meta page before LMDB
  /// publishes the commit in its lock file, which raises no event — microseconds later, unless the
  /// woken watcher took the writer's core.
  static let settleChecks = 55

  /// The wait before the look at the head numbered `remaining` (counting down from
  /// ``settleChecks``), in microseconds: 50 µs first, doubling up to 1 ms.
  static func settleDelay(_ remaining: Int) -> Int {
    min(1_000, 50 << min(5, settleChecks - remaining))
  }

  /// The shortest time between two wakes of the subscribers, in nanoseconds.
  static let minimumInterval: UInt64 = 1_000_000
  /// With many subscribers in the process the interval grows by this much per subscriber (50
  /// subscribers: 2 ms), which bounds their wakes — and the CPU they take from a writer — to about
  /// 25,000 a second in all.
  static let intervalPerSubscriber: UInt64 = 40_000

  private static func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
