import Foundation
import Kalends
import KalendsTestSupport

/// Runs Tests/Oracles/range_sqlite_oracle.py: SQLite answers range queries over pre-expanded instances.
enum SQLiteRangeOracle {
  struct Input: Encodable {
    let instances: [[JSONScalar]]
    let windows: [[Int64]]
  }

  /// A string or integer cell.
  enum JSONScalar: Codable {
    case text(String)
    case number(Int64)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Int64.self) {
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
      }
    }
  }

  /// The answers for each window: rows of id text, occurrence, start, end (the last three as text).
  static func run(instances: [[String]], windows: [[Int64]]) throws -> [[RangeOracleTests.Answer]] {
    let directory = TemporaryDirectory("sqlite-oracle")
    let input = URL(fileURLWithPath: directory.path + "/input.json")
    let output = URL(fileURLWithPath: directory.path + "/output.json")
    let rows = instances.map { row in [JSONScalar.text(row[0])] + row.dropFirst().map { .number(Int64($0)!) } }
    try JSONEncoder().encode(Input(instances: rows, windows: windows)).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", RecurrenceOracle.repositoryRoot.appendingPathComponent("Tests/Oracles/range_sqlite_oracle.py").path,
      input.path, output.path,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw OracleError.failed("the SQLite oracle failed with status \(process.terminationStatus)")
    }
    let decoded = try JSONDecoder().decode([String: [[[JSONScalar]]]].self, from: Data(contentsOf: output))
    return (decoded["results"] ?? []).map { window in
      window.map { row in
        guard case .text(let id) = row[0], case .number(let occurrence) = row[1], case .number(let start) = row[2],
          case .number(let end) = row[3]
        else { fatalError("unexpected row \(row)") }
        return RangeOracleTests.Answer(
          id: ObjectID(id)!, occurrence: LocalDateTime(wallClockSeconds: occurrence)!, start: start, end: end)
      }
    }
  }
}
