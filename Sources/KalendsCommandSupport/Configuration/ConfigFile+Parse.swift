import Kalends
package import KalendsFormats

extension ConfigFile {
  /// The settings `text` gives, read from `path` (named in errors, with the line); `~` in
  /// ``store`` is `home`. The first problem in the file's order is the one reported.
  package static func parse(_ text: String, path: String, home: String) throws(RequestError) -> ConfigFile {
    var reader = SettingsReader(text)
    let entries: [SettingsReader.Entry]
    do {
      entries = try reader.entries()
    } catch {
      throw .invalidInput("\(path):\(error.line):\(error.column): \(error.message)")
    }
    var file = ConfigFile(path: path)
    for entry in entries {
      let place = "\(path):\(entry.line)"
      guard let key = ConfigKey(rawValue: entry.key) else {
        let known = ConfigKey.allCases.map(\.rawValue).joined(separator: ", ")
        throw .invalidInput(
          "\(place): unknown setting \"\(TerminalText.escaped(entry.key))\" — the settings are \(known)")
      }
      switch entry.value {
      case .other(let kind):
        throw .invalidInput(
          "\(place): \(key.rawValue) takes a string in quotes, such as \(key.rawValue) = \"…\" (found: \(kind))")
      case .string(let string):
        guard !string.isEmpty else {
          throw .invalidInput("\(place): \(key.rawValue) is empty — leave it out for the default")
        }
        try file.set(key, to: string, home: home, place: place)
      }
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
}
