import Foundation

/// A program the guard starts beside itself: a server, until it says it listens, or a command to
/// its end.
final class GuardProcess {
  private let process = Process()

  /// Starts `program` with `arguments` and returns once it prints `listening on`.
  init(_ program: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var said = ""
    while !said.contains("listening on") {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw GuardFailure("\(program) ended before listening") }
      said += String(decoding: data, as: UTF8.self)
    }
  }

  /// Ends the server and waits for it.
  func stop() {
    process.terminate()
    process.waitUntilExit()
  }

  /// Runs `program` with `arguments` to its end; throws when it fails.
  static func run(_ program: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw GuardFailure("\(program) \(arguments.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))")
    }
  }
}
