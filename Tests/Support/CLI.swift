package import Foundation
import Testing

/// Runs the built `kalends` executable as a separate process.
package enum CLI {
  /// The result of one run.
  package struct Result {
    package let status: Int32
    package let stdout: String
    package let stderr: String
  }

  /// The `kalends` binary next to the test bundle (or `$KALENDS_BIN`).
  package static var executable: URL {
    if let path = ProcessInfo.processInfo.environment["KALENDS_BIN"] { return URL(fileURLWithPath: path) }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    if directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS" {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("kalends")
  }

  /// The `kalends-harness` binary beside `kalends` (or `$KALENDS_HARNESS_BIN`).
  package static var harness: URL {
    if let path = ProcessInfo.processInfo.environment["KALENDS_HARNESS_BIN"] { return URL(fileURLWithPath: path) }
    return executable.deletingLastPathComponent().appendingPathComponent("kalends-harness")
  }

  /// Runs the Python `code` with `arguments` (`sys.argv[1:]`); its standard output, once it exits 0.
  package static func python(_ code: String, _ arguments: [String]) throws -> String {
    let result = try run(["python3", "-c", code] + arguments, program: URL(fileURLWithPath: "/usr/bin/env"))
    try #require(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  /// Starts `program` (`kalends` unless told) with `arguments`; the caller waits.
  package static func start(
    _ arguments: [String], stdin: String? = nil, stdinBytes: [UInt8]? = nil, environment: [String: String] = [:],
    program: URL = executable
  ) throws -> (Process, Pipe, Pipe) {
    let (process, output, errors, input) = try launch(arguments, environment: environment, program: program)
    if let stdin { input.write(Data(stdin.utf8)) }
    if let stdinBytes { input.write(Data(stdinBytes)) }
    try input.close()
    return (process, output, errors)
  }

  /// Starts `program` with its standard input left open: the returned handle writes to it while
  /// the process runs (a person typing at its terminal).
  package static func launch(
    _ arguments: [String], environment: [String: String] = [:], program: URL = executable
  ) throws -> (Process, Pipe, Pipe, FileHandle) {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged.removeValue(forKey: "KALENDS_STORE")
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let input = Pipe()
    process.standardInput = input
    try process.run()
    return (process, output, errors, input.fileHandleForWriting)
  }

  /// Runs `program` (`kalends` unless told) with `arguments` to completion.
  @discardableResult
  package static func run(
    _ arguments: [String], stdin: String? = nil, stdinBytes: [UInt8]? = nil, environment: [String: String] = [:],
    program: URL = executable
  ) throws -> Result {
    let (process, output, errors) = try start(
      arguments, stdin: stdin, stdinBytes: stdinBytes, environment: environment, program: program)
    return finish(process, output, errors)
  }

  package static func finish(_ process: Process, _ output: Pipe, _ errors: Pipe) -> Result {
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}

/// Parses one JSON object or array printed by the CLI.
package func json(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8))
}
