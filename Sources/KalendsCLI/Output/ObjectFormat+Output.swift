import KalendsCommandSupport
import KalendsFormats

extension ObjectFormat {
  /// Prints one object: as JSON, or as name–value lines without the empty fields. `cells`
  /// replaces the table text of the fields it names.
  func write(_ fields: [(String, JSONValue)], cells: [String: String] = [:]) {
    switch self {
    case .json: print(JSONValue.object(fields).rendered())
    case .table:
      let lines = fields.compactMap { name, value -> (String, String)? in
        let text = cells[name] ?? value.cellText
        return text.isEmpty ? nil : (name, text)
      }
      print(TextTable.fields(lines))
    }
  }

  /// Prints a list: a JSON array of the items' objects, or a table with a column per entry of
  /// `columns` (its header and its cell text).
  func write<Item>(
    _ items: [Item], json: (Item) -> [(String, JSONValue)], columns: [(String, (Item) -> String)]
  ) {
    switch self {
    case .json: print(JSONValue.array(items.map { JSONValue.object(json($0)) }).rendered())
    case .table:
      let rows = items.map { item in columns.map { $0.1(item).replacingNewlines() } }
      print(TextTable.columns([columns.map(\.0)] + rows))
    }
  }
}
