import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// `kalends`: the command-line interface to a Kalends store.
@main
struct KalendsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kalends",
    abstract: "An event-sourced calendar store: every change is a fact in a hash-chained log.",
    discussion: """
      Every command works on one store: --store PATH, else $KALENDS_STORE, else the store the \
      settings file names, else $XDG_DATA_HOME/kalends/default (~/.local/share/kalends/default).
      Settings: $KALENDS_CONFIG, else $XDG_CONFIG_HOME/kalends/config.toml \
      (~/.config/kalends/config.toml); kalends config show says what is in force and why.
      Exit status: 0 success, 64 usage, 65 invalid input, 66 not found, 67 conflict, \
      68 access refused, 69 integrity failure, 70 storage failure.
      """,
    version: Store.softwareVersion,
    subcommands: [
      Init.self, Status.self, Calendar.self, Event.self, Reminder.self, Contact.self, Group.self,
      Agenda.self, Events.self, Search.self, Removed.self, Alarms.self, FreeBusy.self, Import.self, Export.self,
      Subscribe.self, Subscription.self, Account.self,
      Client.self, Push.self,
      Access.self, Config.self,
      Audit.self, Demo.self, Log.self, Verify.self, Backup.self, Erase.self, Compact.self, Retention.self,
      Rebuild.self, Checkpoint.self, Key.self, Witness.self, Serve.self, Prompts.self, Bench.self, Watch.self,
      Fleet.self,
    ]
  )

  /// Runs the command, printing failures as one `error: …` line with the exit status of their class.
  /// The person's settings are read first; a settings file Kalends cannot take stops every command
  /// (help aside) with its error.
  static func main() async {
    LocalZone.setConfigured(ConfigFile.loaded.zone)
    await CommandRunner.run(Self.self, arguments: Self.globalOptionsMoved(Array(CommandLine.arguments.dropFirst()))) {
      _ = try ConfigFile.current.get()
    }
  }

  /// The options every command shares, which may also come before the subcommand
  /// (`kalends --store DIR status`, as `git -C DIR status`).
  static let leadingOptions: Set<String> = ["--store", "--as", "--format"]

  /// `arguments` with the shared options given before the subcommand moved behind it (before a
  /// `--`, if there is one), where each subcommand reads them.
  static func globalOptionsMoved(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      let name = String(argument.prefix { $0 != "=" })
      guard leadingOptions.contains(name) else { break }
      if argument.contains("=") || index + 1 == arguments.count {
        leading.append(argument)
        index += 1
      } else {
        leading += arguments[index...(index + 1)]
        index += 2
      }
    }
    guard !leading.isEmpty else { return arguments }
    var rest = Array(arguments[index...])
    rest.insert(contentsOf: leading, at: rest.firstIndex(of: "--") ?? rest.endIndex)
    return rest
  }
}
