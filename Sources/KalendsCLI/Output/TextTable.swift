import KalendsCommandSupport
import KalendsFormats

/// Plain-text tables for people: aligned columns, or one name and value per line. Every cell is
/// shown through `TerminalText.escaped(_:)`: a title or path from an app cannot move the cursor
/// or rewrite another row.
enum TextTable {
  /// `rows` (the first is the header) with every column but the last padded to its widest cell.
  static func columns(_ rows: [[String]]) -> String {
    let rows = rows.map { $0.map(TerminalText.escaped) }
    guard let columns = rows.first?.count else { return "" }
    let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == columns - 1 ? cell : cell.rightPadded(to: widths[column])
      }.joined(separator: "  ")
    }.joined(separator: "\n")
  }

  /// One `name  value` line per field, the names padded to the longest.
  static func fields(_ lines: [(String, String)]) -> String {
    let lines = lines.map { (TerminalText.escaped($0.0), TerminalText.escaped($0.1)) }
    let width = lines.map(\.0.count).max() ?? 0
    return lines.map { $0.0.rightPadded(to: width) + "  " + $0.1 }.joined(separator: "\n")
  }
}
