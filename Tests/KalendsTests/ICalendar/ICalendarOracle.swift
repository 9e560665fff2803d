import Foundation
import Kalends
import KalendsTestSupport

/// One occurrence as both sides report it: UTC start and end, and the texts that identify it.
struct OracleOccurrence: Hashable, Comparable {
  var start: Int64
  var end: Int64
  var summary: String
  var location: String?
  var notes: String?

  static func < (lhs: OracleOccurrence, rhs: OracleOccurrence) -> Bool {
    (lhs.start, lhs.end, lhs.summary, lhs.location ?? "", lhs.notes ?? "")
      < (rhs.start, rhs.end, rhs.summary, rhs.location ?? "", rhs.notes ?? "")
  }

  /// `start…end summary`, for failure messages.
  var text: String { "\(start)…\(end) \(summary)" }
}

extension OracleOccurrence {
  /// The occurrence of a Kalends event: floating and all-day times read in UTC, as the oracle does.
  init(_ event: Event) throws {
    let zone = event.isAllDay ? nil : try event.timeZone.map { try ZoneRules.named($0) }
    start = (zone ?? .utc).resolve(event.start!)
    end = (zone ?? .utc).resolve(event.end!)
    summary = event.title
    location = event.location
    notes = event.notes
  }

  /// Every occurrence Kalends' range query returns for `[from, to)` in `calendar`, viewed in UTC.
  static func kalends(_ store: EventStore, calendar: ObjectID, from: Int64, to: Int64) throws -> [OracleOccurrence] {
    let predicate = EventPredicate(start: from, end: to, calendars: [calendar], viewerZone: .utc)
    return try store.events(matching: predicate).map(OracleOccurrence.init).sorted()
  }
}

/// Runs `Tests/Oracles/ical_oracle.py` (icalendar + recurring-ical-events) on `.ics` files in a real
/// `python3` process.
enum ICalendarOracle {
  struct Case: Encodable {
    var id: Int
    var file: String
    var from: Int64
    var to: Int64
  }

  private struct Output: Decodable {
    struct Result: Decodable {
      var id: Int
      var occurrences: [[OracleValue]]?
      var error: String?
    }
    var results: [Result]
  }

  /// For each case, the occurrences the oracle found, or the error it reported.
  static func run(_ cases: [Case]) throws -> [Int: Result<[OracleOccurrence], OracleError>] {
    let directory = TemporaryDirectory("ical-oracle")
    let input = URL(fileURLWithPath: directory.path + "/cases.json")
    let output = URL(fileURLWithPath: directory.path + "/results.json")
    try JSONEncoder().encode(["cases": cases]).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", RecurrenceOracle.repositoryRoot.appendingPathComponent("Tests/Oracles/ical_oracle.py").path,
      input.path,
      output.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    switch process.terminationStatus {
    case 0: break
    case 3: throw OracleError.failed("icalendar or recurring-ical-events is missing — run tools/setup")
    default: throw OracleError.failed("the iCalendar oracle failed (\(process.terminationStatus)): \(messages)")
    }
    let decoded = try JSONDecoder().decode(Output.self, from: Data(contentsOf: output))
    var results: [Int: Result<[OracleOccurrence], OracleError>] = [:]
    for result in decoded.results {
      if let error = result.error {
        results[result.id] = .failure(.failed(error))
        continue
      }
      results[result.id] = .success(
        (result.occurrences ?? []).map { values in
          func number(_ index: Int) -> Int64 {
            if case .number(let value) = values[index] { return value }
            return .min
          }
          func string(_ index: Int) -> String? {
            if case .text(let value) = values[index] { return value }
            return nil
          }
          return OracleOccurrence(
            start: number(0), end: number(1), summary: string(3) ?? "", location: string(4), notes: string(5))
        }.sorted())
    }
    _ = directory
    return results
  }

  /// The first differences between two sorted occurrence lists, for a failure message; `nil` when equal.
  static func difference(_ kalends: [OracleOccurrence], _ oracle: [OracleOccurrence]) -> String? {
    guard kalends != oracle else { return nil }
    let onlyKalends = kalends.filter { !oracle.contains($0) }.prefix(4).map(\.text)
    let onlyOracle = oracle.filter { !kalends.contains($0) }.prefix(4).map(\.text)
    return "Kalends \(kalends.count), oracle \(oracle.count); only Kalends: \(onlyKalends); only oracle: \(onlyOracle)"
  }
}
