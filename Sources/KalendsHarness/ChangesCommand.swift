import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import Synchronization

extension Harness {
  /// `kalends-harness changes`: how fast change notices arrive, and what subscribers cost the writer.
  struct Changes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "changes",
      abstract: "Measure change-notice latency (same and other process) and writer throughput with subscribers.",
      discussion: """
        In a new temporary store: (1) latency from a commit's return in the writer to a subscriber \
        holding its notice, the writer in this process, then in a child `kalends-harness write` process, \
        paced so each notice is one commit, p50 and p99 over the monotonic clock, then single commits \
        flushed to disk (as separate `kalends event add` processes write them) spaced --spaced-interval-ms \
        apart in another process, so that no later commit can wake a missed one; (2) the writer's rate \
        of single-event saves (one transaction each) with 0, 1 and 50 subscribers attached in this \
        process, each count run in alternation --rounds times, median rate. Latency runs skip fsync \
        (they measure notices, not the disk); throughput runs both with and without fsync.
        """)

    @Option(help: "Commits per latency run.") var writes: Int = 1_000

    @Option(help: ArgumentHelp("Pause between latency commits.", valueName: "milliseconds")) var intervalMs: Double = 2

    @Option(help: "Single flushed commits of the spaced latency run.") var spacedWrites: Int = 100

    @Option(help: ArgumentHelp("Pause between spaced commits.", valueName: "milliseconds"))
    var spacedIntervalMs: Double = 50

    @Option(help: "Saves per throughput run without fsync (with fsync: a fifth of it).") var throughputWrites: Int =
      5_000

    @Option(help: "Throughput rounds (the median is reported).") var rounds: Int = 3

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      guard writes > 0, spacedWrites > 0, throughputWrites > 0, rounds > 0 else {
        throw ValidationError("--writes, --spaced-writes, --throughput-writes and --rounds must be 1 or more")
      }
    }

    func run() async throws {
      let directory = NSTemporaryDirectory() + "kalends-bench-changes-\(getpid())"
      defer { try? FileManager.default.removeItem(atPath: directory) }
      try? FileManager.default.removeItem(atPath: directory)

      let same = try await ChangeLatencyProbe.inProcess(
        store: directory + "/latency-same", writes: writes, intervalMs: intervalMs)
      let other = try await ChangeLatencyProbe.crossProcess(
        store: directory + "/latency-other", writes: writes, intervalMs: intervalMs)
      let spaced = try await ChangeLatencyProbe.crossProcess(
        store: directory + "/latency-spaced", writes: spacedWrites, intervalMs: spacedIntervalMs, durable: true)
      var throughput: [(durability: String, subscribers: Int, rate: Double)] = []
      for (label, durability, count) in [
        ("noSync", StoreOptions.Durability.noSync, throughputWrites), ("full", .full, max(1, throughputWrites / 5)),
      ] {
        var rates: [Int: [Double]] = [:]
        for round in 0..<rounds {
          // Rotate the order each round so that no count always runs first (or last).
          let counts = [0, 1, 50]
          for offset in 0..<counts.count {
            let subscribers = counts[(offset + round) % counts.count]
            let path = directory + "/throughput-\(label)-\(round)-\(subscribers)"
            rates[subscribers, default: []].append(
              try await ChangeThroughputProbe.run(
                store: path, durability: durability, writes: count, subscribers: subscribers))
            try? FileManager.default.removeItem(atPath: path)
          }
        }
        for subscribers in [0, 1, 50] {
          throughput.append((label, subscribers, ChangeLatencyProbe.median(rates[subscribers] ?? [])))
        }
      }
      report(same: same, other: other, spaced: spaced, throughput: throughput)
    }

    private func report(
      same: ChangeLatencyProbe.Result, other: ChangeLatencyProbe.Result, spaced: ChangeLatencyProbe.Result,
      throughput: [(durability: String, subscribers: Int, rate: Double)]
    ) {
      func base(_ durability: String) -> Double {
        throughput.first { $0.durability == durability && $0.subscribers == 0 }?.rate ?? 1
      }
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("latencySameProcess", same.json), ("latencyOtherProcess", other.json),
            ("latencyOtherProcessSpaced", spaced.json),
            (
              "throughput",
              .array(
                throughput.map { row in
                  .object([
                    ("durability", .string(row.durability)), ("subscribers", .number(Double(row.subscribers))),
                    ("savesPerSecond", .number(row.rate.rounded())),
                    ("ofNone", .number((row.rate / base(row.durability) * 1000).rounded() / 1000)),
                  ])
                })
            ),
          ]).rendered())
      case .table:
        print("| notice latency (commit returned → notice held) | p50 | p99 | max | notices |")
        print("| --- | --- | --- | --- | --- |")
        print(same.row("writer in this process"))
        print(other.row("writer in another process"))
        print(spaced.row("writer in another process, single flushed commits \(Int(spacedIntervalMs)) ms apart"))
        print("")
        print("| writer: single-event saves | subscribers | saves/s (median of \(rounds)) | vs none |")
        print("| --- | --- | --- | --- |")
        for row in throughput {
          print(
            "| \(row.durability == "full" ? "fsync per commit" : "no fsync") | \(row.subscribers) | "
              + String(format: "%.0f", row.rate) + " | "
              + String(format: "%.1f %%", row.rate / base(row.durability) * 100) + " |")
        }
      }
    }
  }
}
