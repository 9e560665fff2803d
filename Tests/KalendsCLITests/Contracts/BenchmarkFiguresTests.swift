import Foundation
import KalendsTestSupport
import Testing

/// Benchmarks/README.md's table of current figures is generated from Benchmarks/figures.tsv by
/// `Benchmarks/scripts/figures`: the two cannot drift apart unnoticed.
@Suite("Benchmark figures kept as data")
struct BenchmarkFiguresTests {
  static let root = Repository.root

  @Test func theTableIsTheData() throws {
    let script = Self.root.appendingPathComponent("Benchmarks/scripts/figures").path
    let check = try CLI.run([script, "--check"], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(check.status == 0, "\(check.stderr)")

    // A figure changed in the data alone is caught.
    let directory = TemporaryDirectory("figures")
    let copy = directory.path + "/repository"
    for path in ["Benchmarks/scripts"] {
      try FileManager.default.createDirectory(atPath: copy + "/" + path, withIntermediateDirectories: true)
    }
    for file in ["Benchmarks/scripts/figures", "Benchmarks/README.md", "Benchmarks/figures.tsv"] {
      try FileManager.default.copyItem(atPath: Self.root.path + "/" + file, toPath: copy + "/" + file)
    }
    let data = copy + "/Benchmarks/figures.tsv"
    var rows = try String(contentsOfFile: data, encoding: .utf8).components(separatedBy: "\n")
    rows[1] += " (changed in the data alone)"
    try rows.joined(separator: "\n").write(toFile: data, atomically: true, encoding: .utf8)
    let drifted = try CLI.run(
      [copy + "/Benchmarks/scripts/figures", "--check"], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(drifted.status == 1)
    #expect(drifted.stderr.contains("run Benchmarks/scripts/figures"), "\(drifted.stderr)")
  }
}
