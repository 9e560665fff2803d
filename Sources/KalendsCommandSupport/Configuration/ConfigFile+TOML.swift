import Kalends
package import KalendsFormats
import TOMLKit

extension ConfigFile {
  /// The settings `text` gives, read from `path` (named in errors, with the line); `~` in
  /// ``store`` is `home`.
  package static func parse(_ text: String, path: String, home: String) throws(RequestError) -> ConfigFile {
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw .invalidInput("\(path):\(error.source.begin.line):\(error.source.begin.column): \(error.description)")
    } catch {
      throw .invalidInput("\(path): \(error)")
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // toml++ keeps a table's keys sorted: report the first problem in the file's order.
    let entries = table.keys.map { key in (key: key, line: line(of: key, in: lines)) }
      .sorted { ($0.line ?? .max, $0.key) < ($1.line ?? .max, $1.key) }
    var file = ConfigFile(path: path)
    for (name, line) in entries {
      let place = line.map { "\(path):\($0)" } ?? path
      guard let key = ConfigKey(rawValue: name) else {
        let known = ConfigKey.allCases.map(\.rawValue).joined(separator: ", ")
        throw .invalidInput("\(place): unknown setting \"\(TerminalText.escaped(name))\" — the settings are \(known)")
      }
      guard let value = table[name], let string = value.string else {
        let type = table[name]?.type.description ?? "nothing"
        throw .invalidInput(
          "\(place): \(key.rawValue) takes a string in quotes, such as \(key.rawValue) = \"…\" (found: \(type))")
      }
      guard !string.isEmpty else {
        throw .invalidInput("\(place): \(key.rawValue) is empty — leave it out for the default")
      }
      try file.set(key, to: string, home: home, place: place)
    }
    return file
  }

  /// Sets `key` to `value`, refusing a value Kalends does not take.
  private mutating func set(
    _ key: ConfigKey, to value: String, home: String, place: String
  ) throws(RequestError) {
    switch key {
    case .store:
      let expanded = value == "~" ? home : value.hasPrefix("~/") ? home + value.dropFirst() : value
      guard expanded.hasPrefix("/") else {
        throw .invalidInput("\(place): store is \"\(TerminalText.escaped(value))\" — give an absolute path or ~/…")
      }
      store = expanded
    case .calendar: calendar = value
    case .reminderList: reminderList = value
    case .zone:
      do {
        _ = try ZoneRules.named(value)
      } catch {
        throw .invalidInput("\(place): zone: \(error)")
      }
      zone = value
    case .format:
      guard let format = ObjectFormat(rawValue: value) else {
        throw .invalidInput("\(place): format is \"\(TerminalText.escaped(value))\" — give table or json")
      }
      self.format = format
    case .notify: notify = value
    }
  }

  /// The line (from 1) where the top-level `key` is set: `key = …`, `key.sub = …` (quoted or
  /// not) before the first table header, or a header `[key]`, `[key.sub]`, `[[key]]`. `nil`
  /// where it cannot be told (a key inside a multi-line value, say).
  static func line(of key: String, in lines: [Substring]) -> Int? {
    let spellings = [key, "\"\(key)\"", "'\(key)'"]
    var inTable = false
    for (index, line) in lines.enumerated() {
      var rest = line.drop { $0 == " " || $0 == "\t" }
      let isHeader = rest.hasPrefix("[")
      if isHeader {
        inTable = true
        rest = rest.drop { $0 == "[" || $0 == " " || $0 == "\t" }
      } else if inTable {
        continue
      }
      for spelling in spellings where rest.hasPrefix(spelling) {
        let after = rest.dropFirst(spelling.count).drop { $0 == " " || $0 == "\t" }
        if after.hasPrefix(".") || (isHeader ? after.hasPrefix("]") : after.hasPrefix("=")) { return index + 1 }
      }
    }
    return nil
  }
}
