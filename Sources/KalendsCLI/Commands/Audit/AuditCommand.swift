import ArgumentParser
import Foundation
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends audit`: replays the privacy history.
  struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "audit",
      abstract: "Replay who had access to what, when and why, and prove the history was not altered.",
      discussion: "Reads only; safe to run while another process writes. check-proof needs no store.",
      subcommands: [
        History.self, Apps.self, Uses.self, Export.self, Report.self, State.self, WhoCan.self, Verify.self, Prove.self,
        CheckProof.self,
      ])
  }
}

/// `--format table|json|csv` for audit reports.
enum ReportFormat: String, ConfiguredFormat, ExpressibleByArgument, CaseIterable {
  case table
  case json
  case csv

  /// Prints rows: a JSON array of objects (`fields`), or a table / CSV of their text.
  func write(_ rows: [[(String, JSONValue)]], columns: [String]) {
    switch self {
    case .json: print(JSONValue.array(rows.map { .object($0) }).rendered())
    case .table, .csv:
      let cells = rows.map { row in
        columns.map { column in row.first { $0.0 == column }?.1.cellText ?? "" }
      }
      if self == .table {
        print(TextTable.columns([columns] + cells))
      } else {
        for line in [columns] + cells { print(line.map(Self.csvField).joined(separator: ",")) }
      }
    }
  }

  private static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
