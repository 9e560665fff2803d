import Foundation
import Kalends
import KalendsTestSupport

/// One recurrence set handed to `Tests/Oracles/recurrence_oracle.py` (python-dateutil + zoneinfo).
struct OracleCase: Codable {
  var id: Int
  var kind: String  // "zoned", "floating", "allday"
  var zone: String?
  var dtstart: String
  var rules: [String]
  var rdates: [String]
  var exdates: [String]
  var limit: Int
  var after: String?
  var horizonYear: Int
}

/// What the oracle computed for one case: the first `limit` occurrences in wall-clock order, each as
/// wall-clock text and, for zoned series, the UTC instant.
struct OracleResult: Codable {
  var id: Int
  var occurrences: [[OracleValue]]
}

enum OracleValue: Codable, Equatable {
  case text(String)
  case number(Int64)
  case null

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let number = try? container.decode(Int64.self) {
      self = .number(number)
    } else {
      self = .text(try container.decode(String.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .text(let text): try container.encode(text)
    case .number(let number): try container.encode(number)
    case .null: try container.encodeNil()
    }
  }
}

enum OracleError: Error, CustomStringConvertible {
  case failed(String)
  var description: String {
    switch self {
    case .failed(let message): message
    }
  }
}

/// Runs the oracle script once on all cases, in a real `python3` process.
enum RecurrenceOracle {
  static let repositoryRoot = Repository.root

  static func run(_ cases: [OracleCase]) throws -> [Int: [(local: String, utc: Int64?)]] {
    let directory = TemporaryDirectory("oracle")
    let input = URL(fileURLWithPath: directory.path + "/cases.json")
    let output = URL(fileURLWithPath: directory.path + "/results.json")
    try JSONEncoder().encode(["cases": cases]).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", repositoryRoot.appendingPathComponent("Tests/Oracles/recurrence_oracle.py").path, input.path,
      output.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw OracleError.failed("cannot start python3 (\(error)) — install Python 3 and run tools/setup")
    }
    let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    switch process.terminationStatus {
    case 0: break
    case 127: throw OracleError.failed("python3 is not on PATH — install Python 3 and run tools/setup")
    case 3: throw OracleError.failed("python-dateutil is missing — run tools/setup (pip install python-dateutil)")
    default: throw OracleError.failed("the oracle failed with status \(process.terminationStatus): \(messages)")
    }
    let decoded = try JSONDecoder().decode([String: [OracleResult]].self, from: Data(contentsOf: output))
    var results: [Int: [(local: String, utc: Int64?)]] = [:]
    for result in decoded["results"] ?? [] {
      results[result.id] = result.occurrences.map { pair in
        guard pair.count == 2, case .text(let local) = pair[0] else { return ("?", nil) }
        if case .number(let utc) = pair[1] { return (local, utc) }
        return (local, nil)
      }
    }
    _ = directory
    return results
  }
}
