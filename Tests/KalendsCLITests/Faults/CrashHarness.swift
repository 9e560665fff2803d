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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, "--kalends", CLI.executable.path, "--quiet"] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lastLine = String(decoding: out, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
    let summary = (try? json(lastLine)) as? [String: Any] ?? [:]
    return (process.terminationStatus, summary, String(decoding: err, as: UTF8.self))
  }
}
