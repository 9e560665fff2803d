import ArgumentParser
import Kalends
import KalendsCommandSupport

extension KalendsCommand.Client {
  /// `kalends client register`: registers an app or changes its name and usage descriptions.
  struct Register: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "register",
      abstract: "Register an app, or change its name and usage descriptions (the Info.plist keys).",
      discussion: """
        --usage takes KEY=TEXT, KEY one of calendars-full, calendars-write-only, reminders-full, contacts. \
        An app asking for a level without its description is denied, as on iOS.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier, e.g. com.example.planner.") var id: String

    @Option(help: "The name the person sees.") var name: String

    @Option(help: ArgumentHelp("A usage description, KEY=TEXT (repeatable).", valueName: "key=text"))
    var usage: [String] = []

    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      var descriptions: [Kalends.Client.Usage: String] = [:]
      for entry in usage {
        guard let equals = entry.firstIndex(of: "="), let key = Kalends.Client.Usage(name: String(entry[..<equals]))
        else {
          throw CLIError.invalidInput(
            "--usage \"\(entry)\": write KEY=TEXT with KEY one of "
              + Kalends.Client.Usage.allCases.map(\.description).joined(separator: ", "))
        }
        descriptions[key] = String(entry[entry.index(after: equals)...])
      }
      let store = try global.openEventStore()
      let client = try store.register(Kalends.Client(id: id, name: name, usageDescriptions: descriptions))
      format.write(client.jsonFields)
    }
  }
}
