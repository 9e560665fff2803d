import Foundation
import KalendsTestSupport
import Testing

/// The speed guard (`kalends-harness guard`) fails on a ratio above its threshold and on a figure
/// without one, and passes within them, on a small store.
@Suite("Speed guard: ratios against thresholds")
struct SpeedGuardTests {
  static let figures = [
    "range.week.one", "range.week.all", "log.append", "log.replay", "dav.week-report", "server.trivial",
  ]

  /// Runs the guard on 1,000 events with the thresholds `rows` (figure → threshold).
  static func run(_ rows: [String: Double], in directory: TemporaryDirectory) throws -> CLI.Result {
    let path = directory.path + "/guards.tsv"
    let text =
      "figure\tthreshold\tmeasured\tset\n"
      + rows.map { "\($0.key)\t\($0.value)\t1\t2026-11-29" }.sorted().joined(separator: "\n") + "\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try CLI.run(
      ["guard", "--events", "1000", "--turns", "20", "--thresholds", path], program: CLI.harness)
  }

  @Test func passesWithinItsThresholdsAndFailsAboveOne() throws {
    let directory = TemporaryDirectory("speed-guard")
    let generous = Dictionary(uniqueKeysWithValues: Self.figures.map { ($0, 1e6) })
    let passed = try Self.run(generous, in: directory)
    #expect(passed.status == 0, "\(passed.stderr)")
    for figure in Self.figures {
      #expect(passed.stdout.contains(figure), "\(figure) not measured: \(passed.stdout)")
    }
    #expect(!passed.stdout.contains("SLOWER"))

    // No product answers below its floor's time: a threshold under 1 must fail, and say which.
    var tight = generous
    tight["range.week.one"] = 0.5
    tight["server.trivial"] = nil
    let failed = try Self.run(tight, in: directory)
    #expect(failed.status == 1)
    #expect(failed.stderr.contains("range.week.one is"), "\(failed.stderr)")
    #expect(failed.stderr.contains("server.trivial has no threshold"), "\(failed.stderr)")
    #expect(failed.stdout.contains("SLOWER"))
  }
}
