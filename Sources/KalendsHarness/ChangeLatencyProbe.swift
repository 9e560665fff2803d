import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import Synchronization

/// Measures how long a change notice takes from the writer's commit to a subscriber.
enum ChangeLatencyProbe {
  struct Result {
    /// Latencies in microseconds, sorted.
    var micros: [Double]
    /// Notices heard before the writer's call had even returned (counted as 0).
    var early: Int

    func percentile(_ p: Double) -> Double {
      guard !micros.isEmpty else { return .nan }
      return micros[min(micros.count - 1, Int((Double(micros.count) * p).rounded(.up)) - 1)]
    }

    func row(_ label: String) -> String {
      "| \(label) | "
        + String(format: "%.0f µs | %.0f µs | %.0f µs", percentile(0.5), percentile(0.99), micros.last ?? .nan)
        + " | \(micros.count) |"
    }

    var json: JSONValue {
      .object([
        ("p50Micros", .number(percentile(0.5).rounded())), ("p99Micros", .number(percentile(0.99).rounded())),
        ("maxMicros", .number((micros.last ?? 0).rounded())), ("count", .number(Double(micros.count))),
        ("beforeWriterReturned", .number(Double(early))),
      ])
    }
  }

  /// Records when each notice's last position arrived.
  final class Arrivals: Sendable {
    let times = Mutex<[UInt64: UInt64]>([:])
    func note(_ notice: ChangeNotice) {
      let now = BenchWriter.monotonicNanoseconds()
      times.withLock { $0[notice.positions.upperBound.rawValue] = now }
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }

  /// Starts a subscriber task on `store` from the next commit; returns its arrivals and the task.
  static func subscribe(_ store: Store) throws -> (Arrivals, Task<Void, Never>) {
    let arrivals = Arrivals()
    let stream = store.changes(from: try store.head().position.next)
    let task = Task {
      var notices = stream.makeAsyncIterator()
      while let notice = try? await notices.next() { arrivals.note(notice) }
    }
    return (arrivals, task)
  }

  /// Writer and subscriber in this process.
  static func inProcess(store path: String, writes: Int, intervalMs: Double) async throws -> Result {
    let store = try Store.create(at: path, options: StoreOptions(durability: .noSync))
    let writer = EventStore(store: store)
    let calendar = try BenchWriter.calendar(in: writer)
    let (arrivals, task) = try subscribe(store)
    let commits: [(UInt64, UInt64)] = try await onThread {
      var commits: [(UInt64, UInt64)] = []
      for index in 0..<writes {
        let saved = try BenchWriter.saveOne(index, in: calendar, with: writer)
        commits.append((saved.version.rawValue, BenchWriter.monotonicNanoseconds()))
        usleep(UInt32(intervalMs * 1_000))
      }
      return commits
    }
    return try await collect(commits, arrivals, task)
  }

  /// Subscriber here, writer in a child `kalends-harness write` process; with `durable`, each commit
  /// is flushed (the default durability), as a separate `kalends event add` would write it.
  static func crossProcess(
    store path: String, writes: Int, intervalMs: Double, durable: Bool = false
  ) async throws -> Result {
    let store = try Store.create(at: path, options: StoreOptions(durability: .noSync))
    _ = try BenchWriter.calendar(in: EventStore(store: store))
    let (arrivals, task) = try subscribe(store)
    let child = Process()
    // This very executable, wherever it was started from (argv[0] may be a bare name found on PATH).
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments =
      [
        "write", "--store", path, "--events", String(writes), "--interval-ms", String(intervalMs), "--timings",
      ] + (durable ? [] : ["--no-sync"])
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    guard child.terminationStatus == 0 else { throw CLIError.invalidInput("the writer process failed") }
    let commits = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line -> (UInt64, UInt64)? in
      let parts = line.split(separator: " ")
      guard parts.count == 2, let position = UInt64(parts[0]), let time = UInt64(parts[1]) else { return nil }
      return (position, time)
    }
    return try await collect(commits, arrivals, task)
  }

  /// Waits for the last notice, then pairs commits with arrivals.
  private static func collect(_ commits: [(UInt64, UInt64)], _ arrivals: Arrivals, _ task: Task<Void, Never>)
    async throws
    -> Result
  {
    let last = commits.last?.0 ?? 0
    let deadline = Date().addingTimeInterval(10)
    while arrivals.times.withLock({ $0.keys.contains { $0 >= last } }) == false, Date() < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    task.cancel()
    let times = arrivals.times.withLock { $0 }
    let ends = times.keys.sorted()
    var micros: [Double] = []
    var early = 0
    for (position, committed) in commits {
      // The notice that covered it: the first whose last position is at or after it.
      guard let end = ends.first(where: { $0 >= position }), let heard = times[end] else { continue }
      if heard < committed {
        early += 1
        micros.append(0)
      } else {
        micros.append(Double(heard - committed) / 1_000)
      }
    }
    return Result(micros: micros.sorted(), early: early)
  }

  /// Runs `body` on a thread of its own (blocking writes stay off the cooperative pool).
  static func onThread<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
      }.start()
    }
  }
}
