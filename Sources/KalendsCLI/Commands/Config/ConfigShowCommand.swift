import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Config {
  /// `kalends config show`: each setting's value and where it comes from.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show each setting in force and where it comes from.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    /// A setting in force: its value (`nil`: none) and what gave it.
    struct Setting {
      let key: ConfigKey
      let value: String?
      let source: String
    }

    func run() throws {
      let file = try ConfigFile.current.get()
      let settings = ConfigKey.allCases.map { setting($0, file: file) }
      switch format {
      case .json:
        let fields: [(String, JSONValue)] = [
          ("file", .string(file.path)), ("fileExists", .bool(file.exists)),
          (
            "settings",
            .array(
              settings.map { setting in
                .object([
                  ("name", .string(setting.key.rawValue)), ("value", setting.value.map(JSONValue.string) ?? .null),
                  ("from", .string(setting.source)),
                ])
              })
          ),
        ]
        print(JSONValue.object(fields).rendered())
      case .table:
        var rows = [["setting", "value", "from"], ["file", file.path, file.exists ? "read" : "none there"]]
        rows += settings.map { [$0.key.rawValue, $0.value.map(TerminalText.escaped) ?? "—", $0.source] }
        print(TextTable.columns(rows))
      }
    }

    /// `key`'s value in force and what gave it: a flag, the environment, the file or the default.
    func setting(_ key: ConfigKey, file: ConfigFile) -> Setting {
      let environment = ProcessInfo.processInfo.environment
      let fromFile = file.value(of: key)
      switch key {
      case .store:
        if let store = global.store, !store.isEmpty { return Setting(key: key, value: store, source: "--store") }
        if let store = environment["KALENDS_STORE"], !store.isEmpty {
          return Setting(key: key, value: store, source: "$KALENDS_STORE")
        }
        return Setting(key: key, value: global.storePath, source: fromFile == nil ? "default" : "settings file")
      case .zone:
        let zone = LocalZone.current.identifier
        if let tz = environment["TZ"], !tz.isEmpty { return Setting(key: key, value: zone, source: "$TZ") }
        return Setting(key: key, value: zone, source: fromFile == nil ? "the system" : "settings file")
      case .format:
        return Setting(
          key: key, value: fromFile ?? ObjectFormat.table.rawValue,
          source: fromFile == nil ? "default" : "settings file")
      case .notify:
        return Setting(key: key, value: fromFile ?? "desktop", source: fromFile == nil ? "default" : "settings file")
      case .calendar, .reminderList:
        return Setting(
          key: key, value: fromFile, source: fromFile == nil ? "not set: give --calendar" : "settings file")
      }
    }
  }
}
