import ArgumentParser
import Foundation
import Kalends

/// `kalends`: the command-line interface to a Kalends store.
@main
struct KalendsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kalends",
    abstract: "An event-sourced calendar store: every change is a fact in a hash-chained log.",
    discussion: """
      Every command works on one store: --store PATH, else $KALENDS_STORE, else \
      $XDG_DATA_HOME/kalends/default (~/.local/share/kalends/default).
      Exit status: 0 success, 64 usage, 65 invalid input, 66 not found, 67 conflict, \
      68 access refused, 69 integrity failure, 70 storage failure.
      """,
    version: Store.softwareVersion,
    subcommands: [
      InitCommand.self, StatusCommand.self, CalendarCommand.self, EventCommand.self, ReminderCommand.self,
      EventsCommand.self, ImportCommand.self, ExportCommand.self, ClientCommand.self, AccessCommand.self,
      AuditCommand.self, DemoCommand.self, LogCommand.self, VerifyCommand.self, BackupCommand.self,
      RebuildCommand.self, BenchCommand.self, WatchCommand.self, TortureCommand.self,
    ]
  )

  /// Runs the command, printing failures as one `error: …` line with the exit status of their class.
  static func main() async {
    MemoryFaultGuard.install()
    rejectArgumentsThatAreNotUTF8()
    do {
      var command = try parseAsRoot(Self.globalOptionsMoved(Array(CommandLine.arguments.dropFirst())))
      if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch let error as StoreError {
      fail(error.description, status: ExitStatus(error.category))
    } catch let error as CLIError {
      fail(error.message, status: error.status)
    } catch {
      exit(withError: error)
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

  /// Swift repairs arguments that are not UTF-8 with U+FFFD; refuse them instead, before they
  /// reach the store as text nobody typed.
  static func rejectArgumentsThatAreNotUTF8() {
    for index in 1..<Int(CommandLine.argc) {
      guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
      fail("argument \(index) is not valid UTF-8 — pass text in UTF-8", status: .invalidInput)
    }
  }

  static func fail(_ message: String, status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    Foundation.exit(status.rawValue)
  }
}
