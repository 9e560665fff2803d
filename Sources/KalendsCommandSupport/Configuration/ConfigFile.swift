import Foundation
package import KalendsFormats

/// The person's settings: `$KALENDS_CONFIG` when set, else `$XDG_CONFIG_HOME/kalends/config.toml`,
/// else `~/.config/kalends/config.toml`, a TOML file (``SettingsReader``) of the keys ``ConfigKey`` names, all optional.
///
/// A setting is the default below what the command line and the environment say: a flag first
/// (`--store`, `--calendar`, `--tz`, `--format`, `--notify`), then the environment
/// (`$KALENDS_STORE`, `$TZ`), then this file, then Kalends' own default. A file that is missing is
/// no settings; `$KALENDS_CONFIG` naming a missing file is an error, and `/dev/null` is none.
/// Anything else the file says that Kalends does not take (a key it does not know, a value of the
/// wrong type, a zone it does not know) is an error naming the file and line, before any command
/// runs: a setting misspelt is never silently ignored.
package struct ConfigFile: Sendable, Equatable {
  /// The file's path.
  package var path: String
  /// Whether the file was there to read.
  package var exists = false
  /// ``ConfigKey/store``, `~` expanded.
  package var store: String?
  /// ``ConfigKey/calendar``.
  package var calendar: String?
  /// ``ConfigKey/reminderList``.
  package var reminderList: String?
  /// ``ConfigKey/zone``, a zone Kalends' zone data knows.
  package var zone: String?
  /// ``ConfigKey/format``.
  package var format: ObjectFormat?
  /// ``ConfigKey/notify``.
  package var notify: String?

  /// No settings, read from `path`.
  package init(path: String) {
    self.path = path
  }

  /// The value `key` is set to, as text; `nil` where the file does not set it.
  package func value(of key: ConfigKey) -> String? {
    switch key {
    case .store: store
    case .calendar: calendar
    case .reminderList: reminderList
    case .zone: zone
    case .format: format?.rawValue
    case .notify: notify
    }
  }

  /// The file of this process's environment, read once: the settings, or why they could not be.
  package static let current: Result<ConfigFile, RequestError> = {
    do throws(RequestError) {
      return .success(try load(environment: ProcessInfo.processInfo.environment))
    } catch {
      return .failure(error)
    }
  }()

  /// This process's settings; none where the file could not be read (the command then fails
  /// before it runs, with ``current``'s error).
  package static var loaded: ConfigFile {
    switch current {
    case .success(let file): file
    case .failure: ConfigFile(path: "")
    }
  }

  /// Where the settings are in `environment`, and whether the environment named the file itself.
  package static func location(environment: [String: String]) -> (path: String, named: Bool) {
    if let path = environment["KALENDS_CONFIG"], !path.isEmpty { return (path, true) }
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return (config + "/kalends/config.toml", false)
    }
    return (home(environment) + "/.config/kalends/config.toml", false)
  }

  /// The largest settings file read.
  static let maximumSize = 1 << 20

  /// Reads the settings file of `environment`.
  package static func load(environment: [String: String]) throws(RequestError) -> ConfigFile {
    let (path, named) = location(environment: environment)
    guard FileManager.default.fileExists(atPath: path) else {
      if named {
        throw .invalidInput("$KALENDS_CONFIG names \(path), which does not exist — create it, or unset $KALENDS_CONFIG")
      }
      return ConfigFile(path: path)
    }
    // Only a regular file is read (or `/dev/null`, which says "no settings"): opening a FIFO would
    // wait for a writer, and a device may never end — every command would hang.
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw RequestError(message: "cannot read the settings file \(path)", category: .storage)
    }
    let isNull = URL(fileURLWithPath: path).resolvingSymlinksInPath().path == "/dev/null"
    guard status.st_mode & S_IFMT == S_IFREG || isNull else {
      throw .invalidInput("\(path) is not a regular file — the settings are a TOML file")
    }
    guard status.st_size <= Self.maximumSize else {
      throw .invalidInput("\(path) is larger than \(Self.maximumSize >> 10) KiB — the settings are a short TOML file")
    }
    // A file handle rather than `Data(contentsOf:)`, which refuses `/dev/null`.
    guard let handle = FileHandle(forReadingAtPath: path),
      let data = try? handle.read(upToCount: Self.maximumSize + 1) ?? Data(), data.count <= Self.maximumSize
    else {
      throw RequestError(message: "cannot read the settings file \(path)", category: .storage)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .invalidInput("\(path): not UTF-8 text — TOML files are UTF-8")
    }
    var file = try parse(text, path: path, home: home(environment))
    file.exists = true
    return file
  }

  /// The home directory of `environment`.
  static func home(_ environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
  }
}
