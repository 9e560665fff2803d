import Foundation
import KalendsTestSupport
import Testing

/// Runs `tools/crash-harness` (python3) against the built `kalends`.
enum CrashHarness {
  /// The script, found from this file's place in the repository.
  static var script: String {
    Repository.root.appendingPathComponent("tools/crash-harness").path
  }

  /// Runs the harness with `arguments` and returns its exit status, its JSON summary (the last line
  /// of its output) and what it wrote on standard error.
  static func run(_ arguments: [String]) throws -> (status: Int32, summary: [String: Any], errors: String) {
    let result = try CLI.run(
      ["python3", script, "--kalends", CLI.executable.path, "--quiet"] + arguments,
      program: URL(fileURLWithPath: "/usr/bin/env"))
    let lastLine = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    let summary = (try? json(lastLine)) as? [String: Any] ?? [:]
    return (result.status, summary, result.stderr)
  }
}
