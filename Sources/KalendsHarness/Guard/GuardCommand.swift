import ArgumentParser
import Foundation
import Kalends
import KalendsSynthetic
import LMDB

extension Harness {
  /// `kalends-harness guard`: the speed guard CI runs (`Benchmarks/guards.tsv`).
  struct Guard: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "guard",
      abstract: "Measure the key figures as ratios to floors measured in the same run; fail above a threshold.",
      discussion: """
        Loads the synthetic calendar (--events, seed 1, 20 calendars) into a store in a temporary \
        directory and times, in alternating turns with its floor so that a shared machine's drift \
        falls on both: a week in one calendar and in all 20 (`instances(matching:)`) against the \
        same occurrences scanned in the leanest LMDB layout (answers compared too); saving an event \
        (one transaction, without fsync) against putting a record of the same size into raw LMDB; \
        rebuilding the projections against scanning the same log records; a CalDAV week REPORT \
        (`kalends serve`, objects' text kept) against the same week in-process; and `GET \
        /v1/whoami` against a bare Hummingbird route (`kalends-floor-server`). Prints each median, \
        its floor's, and their ratio; with --thresholds, exits 1 when a ratio exceeds its \
        threshold or an answer differs from the floor's. The programs `kalends` and \
        `kalends-floor-server` are taken from this executable's directory.
        """)

    @Option(help: "Events in the synthetic store.") var events: Int = 10_000
    @Option(help: "Windows (and requests) timed per figure.") var turns: Int = 300
    @Option(help: "The thresholds file (Benchmarks/guards.tsv); without it, measure only.") var thresholds: String?

    func validate() throws {
      guard events >= 1_000, turns >= 20 else { throw ValidationError("--events must be ≥ 1000, --turns ≥ 20") }
    }

    func run() throws {
      let limits = try thresholds.map { try GuardThresholds(contentsOf: $0) }
      let work = FileManager.default.temporaryDirectory.appendingPathComponent("kalends-guard-\(getpid())").path
      try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: work) }
      let bench = try GuardBench(directory: work, events: events, turns: turns)
      var figures = try bench.range()
      figures.append(try bench.append())
      figures.append(try bench.replay())
      figures += try bench.served()
      var failures = bench.mismatches
      var rows = [["FIGURE", "OURS P50", "FLOOR P50", "RATIO", "THRESHOLD", "SET", ""]]
      for figure in figures {
        let limit = limits?.rows[figure.name]
        var verdict = ""
        if limits != nil, limit == nil {
          failures.append("\(figure.name) has no threshold in \(thresholds ?? "")")
          verdict = "NO THRESHOLD"
        } else if let limit {
          verdict = figure.ratio <= limit.threshold ? "ok" : "SLOWER"
          if figure.ratio > limit.threshold {
            failures.append(
              String(
                format: "%@ is %.2f× its floor, above its threshold %.2f×", figure.name, figure.ratio, limit.threshold))
          }
        }
        rows.append([
          figure.name, GuardTiming.text(figure.oursMedian), GuardTiming.text(figure.floorMedian),
          String(format: "%.2f", figure.ratio), limit.map { String(format: "%.2f", $0.threshold) } ?? "-",
          limit?.set ?? "-", verdict,
        ])
      }
      let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
      for row in rows {
        print(
          zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces))
      }
      guard failures.isEmpty else { throw GuardFailure(failures.joined(separator: "; ")) }
    }
  }
}
