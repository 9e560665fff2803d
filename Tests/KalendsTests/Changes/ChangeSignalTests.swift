import Foundation
import Kalends
import KalendsTestSupport
import Synchronization
import Testing

@Suite("The change watcher: a commit published after its file event is still heard")
struct ChangeSignalTests {
  /// LMDB publishes a commit to readers in `lock.mdb`'s shared memory just after it writes the meta
  /// page to `data.mdb`, so the write's event can wake the watcher before the new head is visible,
  /// and nothing else follows. Here the event comes first and the head moves 5 ms later, with no
  /// event: the watcher must look again rather than wait for its safety timer (ten minutes here).
  // Synchronous, on purpose: the 5 ms between the event and the head must not wait for a free thread
  // of the cooperative pool, which other tests may hold far longer than the watcher looks again.
  @Test func aHeadThatMovesJustAfterTheEventIsHeard() throws {
    let directory = TemporaryDirectory("change-signal")
    let file = directory.path + "/data.mdb"
    try Data(repeating: 0, count: 4_096).write(to: URL(fileURLWithPath: file))
    let signal = ChangeSignal.shared(for: directory.path)
    signal.safetyInterval.store(600_000, ordering: .relaxed)
    defer { signal.safetyInterval.store(1_000, ordering: .relaxed) }
    let head = Atomic<UInt64>(0)
    signal.subscribe(head: { head.load(ordering: .acquiring) }, read: { _ in [] })
    defer { signal.unsubscribe() }
    for round in UInt64(1)...5 {
      let before = signal.generation
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
      try handle.write(contentsOf: Data([UInt8(round)]))
      try handle.close()
      // The behaviour under test: the head moves after the file's event, not with it.
      usleep(5_000)
      head.store(round, ordering: .releasing)
      let deadline = Date().addingTimeInterval(10)
      while signal.generation == before, Date() < deadline { usleep(1_000) }
      #expect(signal.generation > before, "round \(round): the head that moved after the event was not heard")
    }
  }
}
