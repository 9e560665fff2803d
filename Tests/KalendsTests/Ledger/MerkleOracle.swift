import Foundation
import KalendsTestSupport

/// Runs `Tests/Oracles/merkle_oracle.py` — RFC 9162's tree written in Python from the RFC's text alone —
/// in a real `python3` process.
enum MerkleOracle {
  struct Input: Encodable {
    var leaves: [String]
    var roots: [UInt64]
    var inclusion: [[UInt64]]
    var consistency: [[UInt64]]
  }

  struct Output: Decodable {
    var roots: [String: String]
    var inclusion: [[String]]
    var consistency: [[String]]
  }

  static func run(_ input: Input) throws -> Output {
    let directory = TemporaryDirectory("merkle-oracle")
    let inputURL = URL(fileURLWithPath: directory.path + "/input.json")
    let outputURL = URL(fileURLWithPath: directory.path + "/output.json")
    try JSONEncoder().encode(input).write(to: inputURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", RecurrenceOracle.repositoryRoot.appendingPathComponent("Tests/Oracles/merkle_oracle.py").path,
      inputURL.path, outputURL.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw OracleError.failed("the Merkle oracle failed (\(process.terminationStatus)): \(messages)")
    }
    return try JSONDecoder().decode(Output.self, from: Data(contentsOf: outputURL))
  }
}
