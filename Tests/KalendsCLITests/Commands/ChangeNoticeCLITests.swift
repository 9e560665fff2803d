import Foundation
import Kalends
import KalendsTestSupport
import Synchronization
import Testing

@Suite("Change notices: single commits from other processes, each heard through inotify")
struct ChangeNoticeCLITests {
  /// With the safety timer pushed out to ten minutes, a commit whose wake was missed would be heard
  /// only at the next commit, or never: each of these, from its own process and well apart from
  /// the next, must be heard on its own.
  @Test func singleCommitsFromOtherProcessesAreEachHeardWithoutTheSafetyTimer() async throws {
    let cli = try CLIStore()
    let calendar = try cli.calendar("Work")
    let store = try Store.open(at: cli.directory.storePath, options: StoreOptions(durability: .noSync))
    let signal = ChangeSignal.shared(for: cli.directory.storePath)
    signal.safetyInterval.store(600_000, ordering: .relaxed)
    defer { signal.safetyInterval.store(1_000, ordering: .relaxed) }
    let heard = Mutex<Set<UInt64>>([])
    let stream = store.changes(from: try store.head().position.next)
    let listener = Task {
      var notices = stream.makeAsyncIterator()
      while let notice = try? await notices.next() {
        heard.withLock { $0.formUnion(notice.positions.lowerBound.rawValue...notice.positions.upperBound.rawValue) }
      }
    }
    defer { listener.cancel() }
    // No wait for the listener: a commit before its subscription is caught up from the position.
    for index in 0..<12 {
      let added = try cli.object([
        "event", "add", "--calendar", calendar, "--title", "Single \(index)", "--start", "2026-03-29T09:00:00",
        "--end", "2026-03-29T10:00:00",
      ])
      let position = try #require(added["version"] as? Int)
      // Heard on its own, long before any timer: no other commit follows until it is.
      let deadline = Date().addingTimeInterval(30)
      while !heard.withLock({ $0.contains(UInt64(position)) }), Date() < deadline {
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(heard.withLock { $0.contains(UInt64(position)) }, "commit \(position) was not heard")
      // The behaviour under test: commits spaced apart, each heard on its own.
      try await Task.sleep(for: .milliseconds(60))
    }
  }
}
