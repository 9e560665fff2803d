import Foundation

/// The speed guard's thresholds (`Benchmarks/guards.tsv`): per figure, the largest ratio to its
/// floor that passes, the ratio measured when it was set, and the day it was set.
///
/// The file is tab-separated with a header line; lines starting with `#` are comments.
struct GuardThresholds {
  struct Row {
    let figure: String
    let threshold: Double
    let measured: Double
    let set: String
  }

  let rows: [String: Row]

  /// Reads `path`; throws a readable error for a malformed line.
  init(contentsOf path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var rows: [String: Row] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("figure\t") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 4, let threshold = Double(fields[1]), let measured = Double(fields[2]), threshold > 0
      else {
        throw GuardFailure("\(path):\(number + 1): expected figure, threshold, measured, set (tab-separated)")
      }
      rows[fields[0]] = Row(figure: fields[0], threshold: threshold, measured: measured, set: fields[3])
    }
    self.rows = rows
  }
}

/// Why the guard could not measure, or what it found wrong.
struct GuardFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
