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

  /// The arguments of `/usr/bin/env` for a slow client: it connects to `address` (a Unix socket's
  /// path, or `HOST:PORT`), sends `opening`, then `trickle` every `interval` seconds for at most
  /// `limit` seconds, and prints how many seconds passed until the server closed the connection.
  package static func slowClient(
    to address: String, opening: String, trickle: String, every interval: Double, for limit: Double
  ) -> [String] {
    ["python3", "-c", slowClientScript, address, opening, trickle, String(interval), String(limit)]
  }

  private static let slowClientScript = """
    import socket, sys, time
    address, opening, trickle = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
    interval, limit = float(sys.argv[4]), float(sys.argv[5])
    if address.startswith("/"):
        s = socket.socket(socket.AF_UNIX); s.connect(address)
    else:
        host, port = address.rsplit(":", 1); s = socket.create_connection((host, int(port)))
    s.sendall(opening)
    start = time.monotonic()
    try:
        while time.monotonic() - start < limit:
            s.sendall(trickle); time.sleep(interval)
            s.setblocking(False)
            try:
                if s.recv(65536) == b"": break
            except BlockingIOError: pass
            s.setblocking(True)
    except OSError: pass
    print(round(time.monotonic() - start, 2))
    """

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
    // The person's zone is part of what a command does with the times typed; tests say theirs.
    merged["TZ"] = "UTC"
    // The person's settings file (a developer's own) is no part of a test; tests that read one name it.
    merged["KALENDS_CONFIG"] = "/dev/null"
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
